package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Every dispatch mode on 3 CNs x 2 cores over real Aeron IPC, two sending pipelines per CN. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExchangeModesTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);
    private static final int SENDERS_PER_CN = 2;
    private EmbeddedCluster cluster;
    private int nextExchangeId = 1;

    @BeforeAll
    void start() {
        cluster = EmbeddedCluster.ipc(3, new TransportContext().termLength(1024 * 1024), new DispatchContext());
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Sent batches, kept to compute what each destination must receive. */
    private record Sent(int senderCn, Batch batch) {
    }

    private List<Sent> sendAll(final ExchangeRun run, final int batchesPerSender, final int maxRows, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Sent> sent = new ArrayList<>();
        for (int cn = 0; cn < TOPOLOGY.cnCount(); cn++) {
            for (int p = 0; p < SENDERS_PER_CN; p++) {
                final List<Batch> batches = TestBatches.random(cn * SENDERS_PER_CN + p, batchesPerSender, maxRows,
                        TOPOLOGY.bucketCount(), random.split());
                for (final Batch batch : batches) {
                    sent.add(new Sent(cn, batch));
                }
                run.startSender(cn, p, batches);
            }
        }
        return sent;
    }

    private static List<List<Long>> emptyPerBucket() {
        final List<List<Long>> expected = new ArrayList<>();
        for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
            expected.add(new ArrayList<>());
        }
        return expected;
    }

    private static void addIds(final Batch batch, final List<Long> into) {
        TestBatches.collectIds(batch, into);
    }

    private static void assertSameMultisets(final List<List<Long>> actual, final List<List<Long>> expected) {
        for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
            final List<Long> a = new ArrayList<>(actual.get(b));
            final List<Long> e = new ArrayList<>(expected.get(b));
            Collections.sort(a);
            Collections.sort(e);
            assertThat(a).as("rows received by bucket %d", b).isEqualTo(e);
        }
    }

    private Exchange exchange(final DispatchMode mode) {
        return Exchange.of(42, nextExchangeId++, TOPOLOGY, mode, TestBatches.SCHEMA, SENDERS_PER_CN);
    }

    @Test
    void toOwnerDeliversEveryRowOnceToItsOwnerAndOnlyRemoteRowsCrossAeron() throws Exception {
        final Exchange exchange = exchange(DispatchMode.TO_OWNER);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final List<Sent> sent = sendAll(run, 60, 300, 1);
            run.receiveAll(120_000);

            final List<List<Long>> expected = emptyPerBucket();
            long localRows = 0;
            long remoteRows = 0;
            long remoteBatches = 0;
            for (final Sent s : sent) {
                final int bucket = s.batch().shuffleIdx();
                addIds(s.batch(), expected.get(bucket));
                if (TOPOLOGY.cnOf(bucket) == s.senderCn()) {
                    localRows += s.batch().rowCount();
                } else if (s.batch().rowCount() > 0) {
                    remoteRows += s.batch().rowCount();
                    remoteBatches++;
                }
            }
            assertSameMultisets(run.idsByBucket, expected);
            final ExchangeCounters counters = cluster.counters(exchange);
            assertThat(counters.localRows()).isEqualTo(localRows);
            assertThat(counters.remoteRows()).isEqualTo(remoteRows);
            assertThat(counters.remoteBatches()).isEqualTo(remoteBatches);
            assertThat(counters.remoteBytes()).isPositive();
            // Aeron carried exactly the remote batches plus one end-of-stream per remote sender per receiver:
            // nothing local went through it.
            final long remoteEos = (long) TOPOLOGY.bucketCount() * (TOPOLOGY.cnCount() - 1) * SENDERS_PER_CN;
            assertThat(run.framesReceived()).isEqualTo(remoteBatches + remoteEos);
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                assertThat(counters.rowsTo(b)).isEqualTo(expected.get(b).size());
            }
        }
    }

    @Test
    void localOnlyNeverSendsRemote() throws Exception {
        final Exchange exchange = exchange(DispatchMode.LOCAL_ONLY);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final List<Sent> sent = sendAll(run, 40, 200, 2);
            run.receiveAll(120_000);

            final List<List<Long>> expected = emptyPerBucket();
            for (final Sent s : sent) {
                addIds(s.batch(), expected.get(TOPOLOGY.firstBucketOf(s.senderCn())
                        + TOPOLOGY.coreOf(s.batch().shuffleIdx())));
            }
            assertSameMultisets(run.idsByBucket, expected);
            final ExchangeCounters counters = cluster.counters(exchange);
            assertThat(counters.remoteBatches()).isZero();
            assertThat(counters.remoteRows()).isZero();
            assertThat(run.framesReceived()).isZero();
            assertThat(counters.localRows()).isEqualTo(sent.stream().mapToLong(s -> s.batch().rowCount()).sum());
        }
    }

    @Test
    void allCnDeliversACopyToTheMatchingCoreOfEveryCn() throws Exception {
        final Exchange exchange = exchange(DispatchMode.ALL_CN);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final List<Sent> sent = sendAll(run, 30, 200, 3);
            run.receiveAll(120_000);

            final List<List<Long>> expected = emptyPerBucket();
            long remoteRows = 0;
            for (final Sent s : sent) {
                for (int cn = 0; cn < TOPOLOGY.cnCount(); cn++) {
                    addIds(s.batch(), expected.get(TOPOLOGY.firstBucketOf(cn) + TOPOLOGY.coreOf(s.batch().shuffleIdx())));
                    remoteRows += cn == s.senderCn() ? 0 : s.batch().rowCount();
                }
            }
            assertSameMultisets(run.idsByBucket, expected);
            assertThat(cluster.counters(exchange).remoteRows()).isEqualTo(remoteRows);
        }
    }

    @Test
    void broadcastDeliversEveryRowOncePerCnToItsFirstCore() throws Exception {
        final Exchange exchange = exchange(DispatchMode.BROADCAST);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final List<Sent> sent = sendAll(run, 20, 200, 4);
            run.receiveAll(120_000);

            final List<List<Long>> expected = emptyPerBucket();
            for (final Sent s : sent) {
                for (int cn = 0; cn < TOPOLOGY.cnCount(); cn++) {
                    addIds(s.batch(), expected.get(TOPOLOGY.firstBucketOf(cn)));
                }
            }
            assertSameMultisets(run.idsByBucket, expected);
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                assertThat(exchange.receives(b)).as("bucket %d receives", b).isEqualTo(TOPOLOGY.coreOf(b) == 0);
            }
        }
    }

    @Test
    void anyDeliversEveryRowExactlyOnceSpreadOverAllDestinations() throws Exception {
        final Exchange exchange = exchange(DispatchMode.ANY);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final List<Sent> sent = sendAll(run, 30, 100, 5);
            run.receiveAll(120_000);

            final List<Long> expected = new ArrayList<>();
            for (final Sent s : sent) {
                addIds(s.batch(), expected);
            }
            final List<Long> received = new ArrayList<>();
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                assertThat(run.idsByBucket.get(b)).as("bucket %d gets a share", b).isNotEmpty();
                received.addAll(run.idsByBucket.get(b));
            }
            Collections.sort(expected);
            Collections.sort(received);
            assertThat(received).isEqualTo(expected);
        }
    }

    @Test
    void gatherDeliversEverythingToTheOneDestination() throws Exception {
        final int gatherBucket = 3;
        final Exchange exchange = Exchange.gather(42, nextExchangeId++, TOPOLOGY, TestBatches.SCHEMA, SENDERS_PER_CN,
                gatherBucket);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            assertThat(run.sources).filteredOn(s -> s != null).hasSize(1);
            final List<Sent> sent = sendAll(run, 20, 200, 6);
            run.receiveAll(120_000);

            final List<List<Long>> expected = emptyPerBucket();
            for (final Sent s : sent) {
                addIds(s.batch(), expected.get(gatherBucket));
            }
            assertSameMultisets(run.idsByBucket, expected);
        }
    }

    @Test
    void takeWaitsForEachBatchAndReturnsNullOnceEverySenderHasEnded() throws Exception {
        final Exchange exchange = Exchange.gather(42, nextExchangeId++, TOPOLOGY, TestBatches.SCHEMA, SENDERS_PER_CN, 0);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final List<Sent> sent = sendAll(run, 10, 100, 7);
            final List<Long> received = new ArrayList<>();
            Batch batch;
            while ((batch = run.sources[0].take()) != null) {
                TestBatches.collectIds(batch, received);
                batch.release();
            }
            assertThat(run.sources[0].isFinished()).isTrue();
            run.joinSenders();
            final List<Long> expected = new ArrayList<>();
            for (final Sent s : sent) {
                addIds(s.batch(), expected);
            }
            Collections.sort(expected);
            Collections.sort(received);
            assertThat(received).isEqualTo(expected);
        }
    }
}
