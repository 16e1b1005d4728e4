package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.TransportContext;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * One stream per CN carries every query, exchange and bucket: frames reach the source they name,
 * whenever it opens, without one destination holding up another, over one publication per CN pair.
 */
class MultiplexTest {
    private static TransportContext transport() {
        return new TransportContext().termLength(1024 * 1024);
    }

    @Test
    void exchangesOfTwoQueriesInterleavedOnTheSameStreamsDeliverEveryRowToTheirOwnSource() throws Exception {
        final Topology topology = new Topology(3, 2);
        final int senders = 2;
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(3, transport(), new DispatchContext())) {
            // The same exchange ids in both queries: only the query id tells their frames apart.
            final List<ExchangeRun> runs = new ArrayList<>();
            final List<List<List<Long>>> expected = new ArrayList<>();
            final DispatchMode[] modes = {DispatchMode.TO_OWNER, DispatchMode.BROADCAST, DispatchMode.TO_OWNER};
            for (final long query : new long[] {100, 101}) {
                for (int e = 0; e < modes.length; e++) {
                    runs.add(new ExchangeRun(cluster, Exchange.of(query, e + 1, topology, modes[e], TestBatches.SCHEMA,
                            senders)));
                }
            }
            final SplittableRandom random = new SplittableRandom(31);
            for (int r = 0; r < runs.size(); r++) {
                final ExchangeRun run = runs.get(r);
                final List<List<Long>> byBucket = new ArrayList<>();
                for (int b = 0; b < topology.bucketCount(); b++) {
                    byBucket.add(new ArrayList<>());
                }
                for (int cn = 0; cn < topology.cnCount(); cn++) {
                    for (int p = 0; p < senders; p++) {
                        final List<Batch> batches = TestBatches.random(r * 10 + cn * senders + p, 30, 200,
                                topology.bucketCount(), random.split());
                        for (final Batch batch : batches) {
                            for (int b = 0; b < topology.bucketCount(); b++) {
                                if (run.exchange.mode() == DispatchMode.BROADCAST ? run.exchange.receives(b)
                                        : b == batch.shuffleIdx()) {
                                    TestBatches.collectIds(batch, byBucket.get(b));
                                }
                            }
                        }
                        run.startSender(cn, p, batches);
                    }
                }
                expected.add(byBucket);
            }
            // Receive the last exchange first: the frames of the others, interleaved with its own on every
            // stream, must not hold it up.
            for (int r = runs.size() - 1; r >= 0; r--) {
                runs.get(r).receiveAll(120_000);
            }
            for (int r = 0; r < runs.size(); r++) {
                for (int b = 0; b < topology.bucketCount(); b++) {
                    final List<Long> actual = new ArrayList<>(runs.get(r).idsByBucket.get(b));
                    final List<Long> wanted = expected.get(r).get(b);
                    Collections.sort(actual);
                    Collections.sort(wanted);
                    assertThat(actual).as("%s bucket %d", runs.get(r).exchange.describe(), b).isEqualTo(wanted);
                }
            }
            for (int cn = 0; cn < topology.cnCount(); cn++) {
                assertThat(cluster.node(cn).publicationCount()).as("publications of CN %d", cn)
                        .isEqualTo(topology.cnCount() - 1);
            }
            for (final ExchangeRun run : runs) {
                run.close();
            }
        }
    }

    @Test
    void framesThatReachACnBeforeTheirSourceOpensAreKeptAndDelivered() throws Exception {
        final Topology topology = new Topology(2, 1);
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(2, transport(), new DispatchContext())) {
            final Exchange exchange = Exchange.of(200, 1, topology, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 1);
            final List<Long> sent = new ArrayList<>();
            // As many batches as the credit window lets a sender send before its receiver consumes any.
            final int batches = DispatchContext.CREDIT_WINDOW_DEFAULT;
            try (ExchangeSink remote = cluster.node(1).openSink(exchange, 0);
                 ExchangeSink local = cluster.node(0).openSink(exchange, 0)) {
                for (int i = 0; i < batches; i++) {
                    final long[] ids = {i * 10L, i * 10L + 1};
                    sent.add(ids[0]);
                    sent.add(ids[1]);
                    remote.send(TestBatches.batch(ids, 0));
                }
                remote.finish();
                local.finish();
            }
            // CN 0 reads its stream (as the sources of other exchanges would) before bucket 0's source exists.
            final Demultiplexer cn0 = cluster.node(0).demultiplexer();
            ExchangeRun.pollStreamUntil(cluster.node(0), () -> cn0.pendingFrames() == batches + 1,
                    "CN 0 to keep " + batches + " batches and an end-of-stream for a source not yet open");

            final List<Long> received = new ArrayList<>();
            try (ExchangeSource source = cluster.node(0).openSource(exchange, 0);
                 ExchangeSource other = cluster.node(1).openSource(exchange, 0)) {
                assertThat(cn0.pendingFrames()).isZero();
                Batch batch;
                while ((batch = source.take()) != null) {
                    TestBatches.collectIds(batch, received);
                }
                assertThat(other.take()).isNull();
                assertThat(source.isFinished()).isTrue();
                assertThat(other.isFinished()).isTrue();
            }
            assertThat(received).isEqualTo(sent);
            assertThat(cluster.node(0).droppedFrames()).isZero();
        }
    }

    @Test
    void aDestinationNeverPolledHoldsUpOnlyItsOwnSendersAndHoldsNoMoreThanItsCredit() throws Exception {
        final Topology topology = new Topology(2, 2);
        final int window = 4;
        // 64 KiB terms: bucket 0's rows are many times what CN 0's stream holds unread.
        final TransportContext small = new TransportContext().termLength(64 * 1024).mtuLength(8192);
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(2, small, new DispatchContext().creditWindow(window))) {
            final Exchange exchange = Exchange.of(300, 1, topology, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 2);
            try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
                final List<List<Long>> expected = new ArrayList<>();
                for (int b = 0; b < topology.bucketCount(); b++) {
                    expected.add(new ArrayList<>());
                }
                final List<Batch> toBucket0 = new ArrayList<>();
                final List<Batch> toOthers = new ArrayList<>();
                long next = 0;
                for (int i = 0; i < 80; i++) {
                    final int bucket = i < 60 ? 0 : 1 + i % 3;
                    final long[] ids = new long[200];
                    for (int r = 0; r < ids.length; r++) {
                        ids[r] = next++;
                        expected.get(bucket).add(ids[r]);
                    }
                    (bucket == 0 ? toBucket0 : toOthers).add(TestBatches.batch(ids, bucket));
                }
                // CN 1's pipeline 0 sends only to bucket 0, its pipeline 1 only to the others.
                run.startSender(1, 0, toBucket0);
                run.startSender(1, 1, toOthers);
                run.startSender(0, 0, List.of());
                run.startSender(0, 1, List.of());

                final ExchangeSource neverPolled = run.sources[0];
                run.sources[0] = null;
                final Deadline others = Deadline.in(60_000, "buckets 1-3 to receive their rows");
                while (!receivedAll(run, expected)) {
                    others.check();
                    run.pollOnce();
                }
                for (int b = 1; b < topology.bucketCount(); b++) {
                    assertThat(run.idsByBucket.get(b)).as("bucket %d", b).isEqualTo(expected.get(b));
                }
                // The held-up sender has sent what its credit allows and waits: the inbox holds no more.
                ExchangeRun.pollStreamUntil(cluster.node(0), () -> neverPolled.remoteQueued() >= window,
                        "bucket 0 to hold its sender's credit");
                assertThat(neverPolled.rowsReceived()).isZero();
                for (int i = 0; i < 20; i++) {
                    cluster.node(0).demultiplexer().poll();
                }
                assertThat(neverPolled.remoteQueued()).as("batches waiting for bucket 0").isEqualTo(window);

                final List<Long> bucket0 = new ArrayList<>();
                Batch batch;
                while ((batch = neverPolled.take()) != null) {
                    TestBatches.collectIds(batch, bucket0);
                }
                assertThat(bucket0).isEqualTo(expected.get(0));
                run.sources[0] = neverPolled;
                run.receiveAll(60_000);
            }
        }
    }

    private static boolean receivedAll(final ExchangeRun run, final List<List<Long>> expected) {
        for (int b = 1; b < expected.size(); b++) {
            if (run.idsByBucket.get(b).size() < expected.get(b).size()) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aSevenByEightExchangeOpensOnePublicationPerCnPair() throws Exception {
        final Topology topology = new Topology(7, 8);
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(7, transport(), new DispatchContext())) {
            for (int exchangeId = 1; exchangeId <= 2; exchangeId++) {
                final Exchange exchange = Exchange.of(400, exchangeId, topology, DispatchMode.TO_OWNER,
                        TestBatches.SCHEMA, topology.coresPerCn());
                try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
                    final SplittableRandom random = new SplittableRandom(exchangeId);
                    final List<Long> expected = new ArrayList<>();
                    for (int cn = 0; cn < topology.cnCount(); cn++) {
                        for (int p = 0; p < topology.coresPerCn(); p++) {
                            final List<Batch> batches = TestBatches.random(cn * topology.coresPerCn() + p, 2, 50,
                                    topology.bucketCount(), random.split());
                            for (final Batch batch : batches) {
                                TestBatches.collectIds(batch, expected);
                            }
                            run.startSender(cn, p, batches);
                        }
                    }
                    run.receiveAll(120_000);
                    final List<Long> received = new ArrayList<>();
                    run.idsByBucket.forEach(received::addAll);
                    Collections.sort(received);
                    Collections.sort(expected);
                    assertThat(received).isEqualTo(expected);
                }
                for (int cn = 0; cn < topology.cnCount(); cn++) {
                    // Each CN ended its streams to all 48 remote buckets, through 6 publications, not 8 x 48.
                    assertThat(cluster.node(cn).publicationCount()).as("publications of CN %d after exchange %d",
                            cn, exchangeId).isEqualTo(topology.cnCount() - 1);
                }
            }
        }
    }

    @Test
    void framesKeptPastTheRouteRetentionAreDiscardedAndTheirSourceFailsToOpen() throws Exception {
        final Topology topology = new Topology(2, 1);
        final DispatchContext dispatch = new DispatchContext().routeRetentionNs(TimeUnit.MILLISECONDS.toNanos(300));
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(2, transport(), dispatch)) {
            final Exchange exchange = Exchange.of(500, 1, topology, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 1);
            try (ExchangeSink remote = cluster.node(1).openSink(exchange, 0)) {
                remote.send(TestBatches.batch(new long[] {1, 2, 3}, 0));
                remote.finish();
            }
            final Demultiplexer cn0 = cluster.node(0).demultiplexer();
            ExchangeRun.pollStreamUntil(cluster.node(0), () -> cn0.pendingFrames() == 2, "CN 0 to keep two frames");
            ExchangeRun.pollStreamUntil(cluster.node(0), () -> cn0.pendingFrames() == 0,
                    "CN 0 to discard them after the retention");
            assertThat(cluster.node(0).droppedFrames()).isEqualTo(2);
            assertThatThrownBy(() -> cluster.node(0).openSource(exchange, 0))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("bucket 0 of query 500 exchange 1")
                    .hasMessageContaining(DispatchContext.ROUTE_RETENTION_PROP_NAME);
        }
    }

    @Test
    void framesForAClosedExchangeAreDroppedAndCounted() throws Exception {
        final Topology topology = new Topology(2, 1);
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(2, transport(), new DispatchContext())) {
            final Exchange exchange = Exchange.of(600, 1, topology, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 1);
            cluster.node(0).openSource(exchange, 0).close();
            cluster.node(0).closeExchange(exchange);
            try (FramePublisher late = ExchangeRun.rawPublisher(cluster.node(1), 0)) {
                final UnsafeBuffer pipeline = new UnsafeBuffer(new byte[4]);
                pipeline.putInt(0, 0, ByteOrder.LITTLE_ENDIAN);
                late.send(600, 1, 1, 0, FrameKind.EOS, pipeline, 0, 4);
                late.send(600, 1, 1, 0, FrameKind.HEARTBEAT, pipeline, 0, 4);
            }
            ExchangeRun.pollStreamUntil(cluster.node(0), () -> cluster.node(0).droppedFrames() == 2,
                    "CN 0 to drop two late frames");
            assertThat(cluster.node(0).demultiplexer().pendingFrames()).isZero();
            assertThatThrownBy(() -> cluster.node(0).openSource(exchange, 0))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("has closed query 600 exchange 1");
        }
    }
}
