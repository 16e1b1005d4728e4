package io.sluice.perf.cli;

import io.sluice.dispatch.control.StorageReads;
import io.sluice.dispatch.control.QueryStats;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.filter.FilterKind;
import io.sluice.iceberg.IcebergCatalog;

/**
 * {@code sluice query --stats-json}: what a distributed query moved, as one JSON object with the
 * keys query, strategy, cn, cores, buckets, wall_ms, rows_remote, bytes_remote, rows_local,
 * bytes_local, blocks_sent_stored, bytes_sent_stored, whole_block_routes, split_batches, exchanges (id,
 * mode, keys, rows_remote, bytes_remote, rows_local, bytes_local, blocks_sent_stored, bytes_sent_stored,
 * bucket_rows) and runtime_filters (id, build, probe, kinds, scope,
 * build_rows, probe_rows_in, probe_rows_out, blocks_skipped, wait_ms, state) and sorts (merged_rows,
 * merged_runs, full_sorts: what the coordinator's MERGE SORTs merged and how many sorts of every row it
 * ran), spilled_bytes (what the query's operators wrote to spill files, on every CN) and memory (operator, peak_bytes,
 * spilled_bytes: each operator that holds rows, the most bytes it held on one CN and what it spilled on all), and
 * over a store on object storage, read by this process or by the CN processes of a coordinator,
 * object_storage (gets, bytes_read: what was fetched;
 * cache_hits, bytes_from_cache: block files read from the block cache instead), and over Iceberg tables read by
 * this process, iceberg (data_files: of the tables scans read; data_files_read and blocks_read: what the query read
 * that earlier queries of the same command had not, so a file pruned by its manifest bounds is never counted). Remote
 * means from one CN to another through Aeron; sent stored, the DATA frames (and their
 * bytes, part of bytes_remote) that carried a stored block copied from its file instead of a batch
 * encoded again.
 */
final class StatsJson {
    private StatsJson() {
    }

    static String of(final QueryStats stats) {
        return of(stats, null);
    }

    /** As {@link #of(QueryStats)}, with what the query read of a store on object storage when {@code reads} is given. */
    static String of(final QueryStats stats, final StorageReads reads) {
        return of(stats, reads, null);
    }

    /**
     * As {@link #of(QueryStats, StorageReads)}, with what the query read of Iceberg tables in this process when
     * {@code iceberg} is given.
     */
    static String of(final QueryStats stats, final StorageReads reads, final IcebergCatalog.Reads iceberg) {
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
                .name("blocks_sent_stored").value(stats.blocksSentStored())
                .name("bytes_sent_stored").value(stats.bytesSentStored())
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
                    .name("blocks_sent_stored").value(e.blocksSentStored())
                    .name("bytes_sent_stored").value(e.bytesSentStored())
                    .name("bucket_rows").beginArray();
            for (final long r : e.bucketRows()) {
                json.value(r);
            }
            json.endArray().endObject();
        }
        json.endArray().name("runtime_filters").beginArray();
        for (final RuntimeFilterStats f : stats.runtimeFilters()) {
            json.beginObject().name("id").value(f.id()).name("build").beginArray();
            for (final String k : f.build()) {
                json.value(k);
            }
            json.endArray().name("probe").beginArray();
            for (final String k : f.probe()) {
                json.value(k);
            }
            json.endArray().name("kinds").beginArray();
            for (final FilterKind k : f.kinds()) {
                json.value(k.label());
            }
            json.endArray()
                    .name("scope").value(f.scope().label())
                    .name("build_rows").value(f.buildRows())
                    .name("probe_rows_in").value(f.probeRowsIn())
                    .name("probe_rows_out").value(f.probeRowsOut())
                    .name("blocks_skipped").value(f.blocksSkipped())
                    .name("wait_ms").value(f.waitMillis())
                    .name("state").value(f.state().label())
                    .endObject();
        }
        json.endArray().name("sorts").beginObject()
                .name("merged_rows").value(stats.sorts().mergedRows())
                .name("merged_runs").value(stats.sorts().mergedRuns())
                .name("full_sorts").value(stats.sorts().fullSorts())
                .endObject()
                .name("spilled_bytes").value(stats.spilledBytes())
                .name("memory").beginArray();
        for (final QueryStats.OperatorMemory m : stats.memory()) {
            json.beginObject()
                    .name("operator").value(m.operator())
                    .name("peak_bytes").value(m.peakBytes())
                    .name("spilled_bytes").value(m.spilledBytes())
                    .endObject();
        }
        json.endArray();
        if (reads != null) {
            json.name("object_storage").beginObject()
                    .name("gets").value(reads.objectGets())
                    .name("bytes_read").value(reads.objectBytes())
                    .name("cache_hits").value(reads.cacheHits())
                    .name("bytes_from_cache").value(reads.cacheBytes())
                    .endObject();
        }
        if (iceberg != null) {
            json.name("iceberg").beginObject()
                    .name("data_files").value(iceberg.dataFiles())
                    .name("data_files_read").value(iceberg.filesRead())
                    .name("blocks_read").value(iceberg.blocksRead())
                    .endObject();
        }
        return json.endObject() + "\n";
    }
}
