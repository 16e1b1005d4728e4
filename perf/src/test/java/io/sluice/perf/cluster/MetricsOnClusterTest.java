package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.perf.cli.Cli;
import io.sluice.perf.metrics.PrometheusText;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --metrics} on a coordinator and two CN processes: each serves {@code /metrics} that parses as
 * Prometheus text, with the JVM's metrics and its own; the coordinator's query counters, latency
 * histogram and exchange traffic move with a query that finishes, its failure counter with one that
 * times out, and it has a heartbeat lag for each CN.
 */
class MetricsOnClusterTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String ENDLESS = "select count(*) as pairs from (select 1 as ka from lineitem) a"
            + " join (select 1 as kb from lineitem) b on a.ka = b.kb";

    @TempDir
    static Path dir;

    private static Store store;
    private static ProcessCluster cluster;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        store = Store.create(dir.resolve("store"));
        for (final TpchTable t : List.of(TpchTable.LINEITEM, TpchTable.ORDERS)) {
            try (Table ignored = TpchLoader.load(store, t, 0.01, rows -> { })) {
                // Written; the cluster opens it.
            }
        }
        cluster = ProcessCluster.loopbackWithArgs(store.dir(), 2, 1, List.of("--metrics", "127.0.0.1:0"),
                List.of("--metrics", "127.0.0.1:0"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int port(final JavaProcess process) {
        final String line = process.awaitLine(l -> l.contains("metrics listening on "), ProcessCluster.START);
        final String address = line.substring(line.indexOf("metrics listening on ") + "metrics listening on ".length())
                .split(" ")[0];
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    private static PrometheusText scrape(final int port) throws Exception {
        final HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).timeout(DEADLINE).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        return PrometheusText.parse(r.body());
    }

    private static Cli.Result sql(final String... args) {
        final List<String> all = new ArrayList<>(List.of("sql", "--store", store.dir().toString(),
                "--coordinator", cluster.endpoint().toString()));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(String[]::new));
    }

    @Test
    void theCoordinatorsCountersMoveWithAQueryThatFinishesAndOneThatTimesOut() throws Exception {
        final int port = port(cluster.coordinator());
        final PrometheusText before = scrape(port);
        assertThat(before.get("jvm_memory_used_bytes{area=\"heap\"}")).isPositive();
        final Cli.Result ok = sql("select o_orderpriority, count(*) as n from orders group by o_orderpriority"
                + " order by o_orderpriority", "--strategy", "shuffle-hash");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        final Cli.Result timedOut = sql(ENDLESS, "--timeout", "300");
        assertThat(timedOut.exitCode()).as(timedOut.toString()).isEqualTo(1);
        final PrometheusText after = await(port, m -> m.value("sluice_queries_running{}") == 0
                && m.value("sluice_queries_failed_total{error_type=\"TimeoutException\"}")
                > before.value("sluice_queries_failed_total{error_type=\"TimeoutException\"}"));
        assertThat(after.value("sluice_queries_started_total{}") - before.value("sluice_queries_started_total{}"))
                .isEqualTo(2);
        assertThat(after.value("sluice_queries_finished_total{}") - before.value("sluice_queries_finished_total{}"))
                .isEqualTo(1);
        assertThat(after.value("sluice_query_duration_seconds_count{}")
                - before.value("sluice_query_duration_seconds_count{}")).isEqualTo(1);
        assertThat(after.value("sluice_query_duration_seconds_sum{}")).isPositive();
        double remoteRows = 0;
        for (final var e : after.samples().entrySet()) {
            if (e.getKey().startsWith("sluice_exchange_rows_total{") && e.getKey().contains("path=\"remote\"")) {
                remoteRows += e.getValue();
            }
        }
        assertThat(remoteRows).as("a hash shuffle on two CNs moves rows between them").isPositive();
        for (final String cn : List.of("cn0", "cn1")) {
            assertThat(after.get("sluice_cn_heartbeat_lag_seconds{cn=\"" + cn + "\"}")).isNotNull().isLessThan(10);
            assertThat(after.get("sluice_cn_state{cn=\"" + cn + "\",state=\"alive\"}")).isEqualTo(1);
        }
        assertThat(after.get("sluice_coordinator_rejected_messages_total{}")).isNotNull();
    }

    @Test
    void eachCnServesItsOwnMetrics() throws Exception {
        for (final String cn : List.of("cn0", "cn1")) {
            final PrometheusText m = await(port(cluster.cn(cn)), s -> s.value("sluice_cn_member{}") == 1);
            assertThat(m.get("sluice_cn_queries_running{}")).isNotNull();
            assertThat(m.get("jvm_threads_current{}")).isPositive();
        }
    }

    private static PrometheusText await(final int port, final Predicate<PrometheusText> condition) throws Exception {
        final long deadline = System.nanoTime() + DEADLINE.toNanos();
        PrometheusText last = scrape(port);
        while (!condition.test(last)) {
            assertThat(System.nanoTime() - deadline).as("waited %s s for the metrics; last %s", DEADLINE.toSeconds(),
                    last.samples()).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            last = scrape(port);
        }
        return last;
    }
}
