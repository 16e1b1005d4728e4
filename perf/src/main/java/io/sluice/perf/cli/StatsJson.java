package io.sluice.perf.cli;

import io.sluice.dispatch.control.QueryStats;

/**
 * {@code sluice query --stats-json}: what a distributed query moved, as one JSON object with the
 * keys query, strategy, cn, cores, buckets, wall_ms, rows_remote, bytes_remote, rows_local,
 * bytes_local, whole_block_routes, split_batches and exchanges (id, mode, keys, rows_remote,
 * bytes_remote, rows_local, bytes_local, bucket_rows). Remote means from one CN to another through Aeron.
 */
final class StatsJson {
    private StatsJson() {
    }

    static String of(final QueryStats stats) {
        final JsonWriter json = new JsonWriter().beginObject()
                .name("query").value(stats.query())
                .name("strategy").value(stats.strategy())
                .name("cn").value(stats.topology().cnCount())
                .name("cores").value(stats.topology().coresPerCn())
                .name("buckets").value(stats.topology().bucketCount())
                .name("wall_ms").value(stats.wallMillis())
                .name("rows_remote").value(stats.rowsRemote())
                .name("bytes_remote").value(stats.bytesRemote())
                .name("rows_local").value(stats.rowsLocal())
                .name("bytes_local").value(stats.bytesLocal())
                .name("whole_block_routes").value(stats.wholeBlockRoutes())
                .name("split_batches").value(stats.splitBatches())
                .name("exchanges").beginArray();
        for (final QueryStats.ExchangeStats e : stats.exchanges()) {
            json.beginObject()
                    .name("id").value(e.id())
                    .name("mode").value(e.mode())
                    .name("keys").beginArray();
            for (final String k : e.keys()) {
                json.value(k);
            }
            json.endArray()
                    .name("rows_remote").value(e.rowsRemote())
                    .name("bytes_remote").value(e.bytesRemote())
                    .name("rows_local").value(e.rowsLocal())
                    .name("bytes_local").value(e.bytesLocal())
                    .name("bucket_rows").beginArray();
            for (final long r : e.bucketRows()) {
                json.value(r);
            }
            json.endArray().endObject();
        }
        return json.endArray().endObject() + "\n";
    }
}
