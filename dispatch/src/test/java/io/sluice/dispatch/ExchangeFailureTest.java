package io.sluice.dispatch;

import static io.sluice.dispatch.ExchangeRun.pollUntilFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aeron.Publication;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.FrameHeader;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What must neither lose rows nor hang: empty inputs and buckets, early finish, bad end-of-stream, failures. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExchangeFailureTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);
    private EmbeddedCluster cluster;
    private int nextExchangeId = 1;

    @BeforeAll
    void start() {
        cluster = EmbeddedCluster.ipc(3,
                new TransportContext().termLength(1024 * 1024).connectTimeoutNs(TimeUnit.SECONDS.toNanos(3)),
                new DispatchContext().queueCapacity(4).senderTimeoutNs(TimeUnit.SECONDS.toNanos(2)));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Exchange exchange(final Topology topology, final DispatchMode mode, final int sendersPerCn) {
        return Exchange.of(7, nextExchangeId++, topology, mode, TestBatches.SCHEMA, sendersPerCn);
    }

    @Test
    void sendersWithNoRowsStillEndTheirStreams() throws Exception {
        try (ExchangeRun run = new ExchangeRun(cluster, exchange(TOPOLOGY, DispatchMode.TO_OWNER, 2))) {
            for (int cn = 0; cn < 3; cn++) {
                for (int p = 0; p < 2; p++) {
                    run.startSender(cn, p, List.of());
                }
            }
            run.receiveAll(60_000);
            assertThat(run.idsByBucket).allSatisfy(ids -> assertThat(ids).isEmpty());
            for (final ExchangeSource source : run.sources) {
                assertThat(source.missingEndOfStreams()).isZero();
            }
        }
    }

    @Test
    void emptyBucketsAndEmptyBatchesFinishWithEveryRowDelivered() throws Exception {
        try (ExchangeRun run = new ExchangeRun(cluster, exchange(TOPOLOGY, DispatchMode.TO_OWNER, 1))) {
            // Only bucket 4 gets rows, one sender sends only empty batches, one sends nothing.
            run.startSender(0, 0, List.of(TestBatches.batch(new long[] {1, 2, 3}, 4),
                    TestBatches.batch(new long[0], 1), TestBatches.batch(new long[] {4}, 4)));
            run.startSender(1, 0, List.of(TestBatches.batch(new long[0], 0), TestBatches.batch(new long[0], 5)));
            run.startSender(2, 0, List.of());
            run.receiveAll(60_000);
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                assertThat(run.idsByBucket.get(b)).as("bucket %d", b).isEqualTo(b == 4 ? List.of(1L, 2L, 3L, 4L) : List.of());
            }
            assertThat(cluster.counters(run.exchange).remoteBatches()).isEqualTo(2);
        }
    }

    @Test
    void aDestinationThatFinishesEarlyNeitherBlocksSendersNorLosesOthersRows() throws Exception {
        final Exchange exchange = exchange(TOPOLOGY, DispatchMode.TO_OWNER, 1);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final SplittableRandom random = new SplittableRandom(11);
            final List<Long> expectedOthers = new ArrayList<>();
            for (int cn = 0; cn < 3; cn++) {
                // Far more batches for bucket 0 than its 4-slot queue and a 1 MiB term hold.
                final List<Batch> batches = TestBatches.random(cn, 400, 100, TOPOLOGY.bucketCount(), random.split());
                for (final Batch batch : batches) {
                    if (batch.shuffleIdx() != 0) {
                        TestBatches.collectIds(batch, expectedOthers);
                    }
                }
                run.startSender(cn, 0, batches);
            }
            final ExchangeSource early = run.sources[0];
            final Deadline first = Deadline.in(30_000, "a first batch at bucket 0");
            Batch batch;
            while ((batch = early.poll()) == null) {
                first.check();
                Thread.onSpinWait();
            }
            batch.release();
            early.finishEarly();
            assertThat(early.isFinished()).isTrue();
            run.sources[0] = null;
            run.receiveAll(60_000);

            final List<Long> received = new ArrayList<>();
            for (int b = 1; b < TOPOLOGY.bucketCount(); b++) {
                received.addAll(run.idsByBucket.get(b));
            }
            Collections.sort(received);
            Collections.sort(expectedOthers);
            assertThat(received).isEqualTo(expectedOthers);
            // CN 0's own sender saw bucket 0's queue closed and dropped; the other CNs' senders cannot see it
            // finish, so CN 0 dropped their frames for it on arrival.
            final ExchangeCounters onCn0 = cluster.node(0).counters(exchange);
            assertThat(onCn0.droppedBatches()).isPositive();
            assertThat(onCn0.droppedRemoteBatches()).isPositive();
            assertThat(cluster.node(1).counters(exchange).droppedRemoteBatches()).isZero();
            early.close();
        }
    }

    @Test
    void aDestinationThatFinishesEarlyBeforeARemoteSendersFirstBatchHasItDroppedByItsCn() throws Exception {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource early = cluster2().node(0).openSource(exchange, 0);
             ExchangeSource other = cluster2().node(1).openSource(exchange, 0);
             ExchangeSink local = cluster2().node(0).openSink(exchange, 0);
             ExchangeSink remote = cluster2().node(1).openSink(exchange, 0)) {
            // The remote sink cannot see that bucket 0 finished: it sends, and CN 0 drops what arrives for it.
            early.finishEarly();
            remote.send(TestBatches.batch(new long[] {1, 2}, 0));
            remote.send(TestBatches.batch(new long[] {3}, 1));
            remote.finish();
            local.finish();
            final List<Long> received = new ArrayList<>();
            final Deadline deadline = Deadline.in(10_000, "bucket 1 to finish");
            while (!other.isFinished()) {
                deadline.check();
                final Batch batch = other.poll();
                if (batch != null) {
                    TestBatches.collectIds(batch, received);
                    batch.release();
                }
                Thread.onSpinWait();
            }
            assertThat(received).containsExactly(3L);
            final ExchangeCounters onCn0 = cluster2().node(0).counters(exchange);
            ExchangeRun.pollStreamUntil(cluster2().node(0), () -> onCn0.droppedRemoteBatches() > 0,
                    "CN 0 to drop the batch for bucket 0");
            assertThat(onCn0.droppedRemoteBatches()).isEqualTo(1);
            assertThat(early.rowsReceived()).isZero();
        }
    }

    @Test
    void aSecondEndOfStreamFromTheSameSenderIsAnErrorNamingIt() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             ExchangeSource other = cluster2().node(1).openSource(exchange, 0);
             ExchangeSink local = cluster2().node(0).openSink(exchange, 0);
             FramePublisher remote = ExchangeRun.rawPublisher(cluster2().node(1), 0)) {
            local.finish();
            final UnsafeBuffer pipeline = endOfStream(0, 0);
            remote.send(7, exchange.exchangeId(), 1, 0, FrameKind.EOS, pipeline, 0, pipeline.capacity());
            remote.send(7, exchange.exchangeId(), 1, 0, FrameKind.EOS, pipeline, 0, pipeline.capacity());
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("second end-of-stream from CN 1 pipeline 0")
                    .hasMessageContaining("query 7");
            assertThatThrownBy(local::finish).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("end-of-stream is sent once");
        }
    }

    @Test
    void anEndOfStreamFromAnUnknownSenderIsAnError() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             FramePublisher remote = ExchangeRun.rawPublisher(cluster2().node(1), 0)) {
            final UnsafeBuffer pipeline = endOfStream(3, 0);
            remote.send(7, exchange.exchangeId(), 1, 0, FrameKind.EOS, pipeline, 0, pipeline.capacity());
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("unexpected end-of-stream from CN 1 pipeline 3");
        }
    }

    @Test
    void anEndOfStreamCountingMoreDataFramesThanArrivedFailsItsDestinationNamingTheSender() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             ExchangeSink local = cluster2().node(0).openSink(exchange, 0);
             FramePublisher remote = ExchangeRun.rawPublisher(cluster2().node(1), 0)) {
            local.finish();
            // CN 1 says it sent two DATA frames; none arrived (refused or dropped on the way).
            final UnsafeBuffer eos = endOfStream(0, 2);
            remote.send(7, exchange.exchangeId(), 1, 0, FrameKind.EOS, eos, 0, eos.capacity());
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("received 0 of the 2 DATA frames CN 1 sent")
                    .hasMessageContaining("query 7");
        }
    }

    private static UnsafeBuffer endOfStream(final int pipeline, final long dataFrames) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[12]);
        payload.putInt(0, pipeline, ByteOrder.LITTLE_ENDIAN);
        payload.putLong(4, dataFrames, ByteOrder.LITTLE_ENDIAN);
        return payload;
    }

    @Test
    void aRemoteSendersFailureReachesItsReceiversAsAnExceptionNamingCnAndQuery() {
        final Exchange exchange = exchange(TOPOLOGY, DispatchMode.TO_OWNER, 1);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange);
             ExchangeSink sink = cluster.node(2).openSink(exchange, 0)) {
            final ExchangeSource remoteReceiver = run.sources[1];
            final ExchangeSource localReceiver = run.sources[4];
            sink.send(TestBatches.batch(new long[] {1, 2}, 1));
            sink.fail(new IllegalStateException("disk on fire"));
            final DispatchException remote = pollUntilFailure(remoteReceiver, 10_000);
            assertThat(remote).hasMessageContaining("error from CN 2").hasMessageContaining("query 7")
                    .hasMessageContaining("disk on fire");
            assertThat(remoteReceiver.rowsReceived()).isEqualTo(2);
            assertThat(pollUntilFailure(localReceiver, 10_000)).hasMessageContaining("error from CN 2")
                    .hasMessageContaining("disk on fire");
        }
    }

    @Test
    void aSilentSenderFailsTheReceiverAfterTheTimeoutNamingItsCn() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             ExchangeSource other = cluster2().node(1).openSource(exchange, 0);
             ExchangeSink local = cluster2().node(0).openSink(exchange, 0)) {
            // CN 1 opened the exchange's source but never a sink: it sends nothing.
            local.finish();
            final DispatchException e = pollUntilFailure(source, 20_000);
            assertThat(e).hasMessageContaining("end-of-stream from CN 1 pipeline 0").hasMessageContaining("query 7")
                    .hasMessageContaining(DispatchContext.SENDER_TIMEOUT_PROP_NAME);
        }
    }

    @Test
    void aSinkClosedWithoutFinishingFailsItsReceivers() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             ExchangeSource other = cluster2().node(1).openSource(exchange, 0)) {
            cluster2().node(1).openSink(exchange, 0).close();
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("error from CN 1")
                    .hasMessageContaining("closed before finish()");
        }
    }

    @Test
    void aFrameFromACnOutsideTheTopologyFailsItsDestinationNamingThatCn() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             FramePublisher remote = ExchangeRun.rawPublisher(cluster2().node(1), 0)) {
            final UnsafeBuffer pipeline = endOfStream(0, 0);
            remote.send(7, exchange.exchangeId(), 5, 0, FrameKind.EOS, pipeline, 0, pipeline.capacity());
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("EOS frame from CN 5")
                    .hasMessageContaining("not a remote CN of topology").hasMessageContaining("query 7");
        }
    }

    @Test
    void anEndOfStreamWithoutItsPipelineFailsItsDestination() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             FramePublisher remote = ExchangeRun.rawPublisher(cluster2().node(1), 0)) {
            remote.send(7, exchange.exchangeId(), 1, 0, FrameKind.EOS, null, 0, 0);
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("EOS frame of 0 bytes from CN 1")
                    .hasMessageContaining("expected 12 (the sending pipeline, its DATA frames)");
        }
    }

    @Test
    void aFrameOfUnknownKindFailsItsDestinationNamingTheSender() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0)) {
            ExchangeRun.awaitConnected(cluster2().node(1), 0);
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[FrameHeader.LENGTH]);
            FrameHeader.encode(frame, 0, 7, exchange.exchangeId(), 1, 0, FrameKind.DATA, 0);
            frame.putByte(FrameHeader.KIND_OFFSET, (byte) 9);
            final Publication publication = cluster2().node(1).publication(0);
            final Deadline offered = Deadline.in(10_000, "the raw frame to be offered");
            while (publication.offer(frame, 0, frame.capacity()) < 0) {
                offered.check();
                Thread.onSpinWait();
            }
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("malformed frame from CN 1")
                    .hasMessageContaining("unknown frame kind code 9").hasMessageContaining("query 7");
        }
    }

    @Test
    void aFrameForABucketThatDoesNotReceiveOnTheCnFailsTheExchangesSourcesThere() {
        final Topology topology = new Topology(2, 1);
        final Exchange exchange = exchange(topology, DispatchMode.TO_OWNER, 1);
        try (ExchangeSource source = cluster2().node(0).openSource(exchange, 0);
             FramePublisher remote = ExchangeRun.rawPublisher(cluster2().node(1), 0)) {
            final UnsafeBuffer pipeline = new UnsafeBuffer(new byte[4]);
            remote.send(7, exchange.exchangeId(), 1, 1, FrameKind.EOS, pipeline, 0, 4);
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("frame for bucket 1")
                    .hasMessageContaining("does not receive on CN 0");
        }
    }

    private EmbeddedCluster cluster2;

    /** A 2-CN cluster on the same settings, started on first use. */
    private EmbeddedCluster cluster2() {
        if (cluster2 == null) {
            cluster2 = EmbeddedCluster.ipc(2,
                    new TransportContext().termLength(1024 * 1024).connectTimeoutNs(TimeUnit.SECONDS.toNanos(3)),
                    new DispatchContext().queueCapacity(4).senderTimeoutNs(TimeUnit.SECONDS.toNanos(2)));
        }
        return cluster2;
    }

    @AfterAll
    void stopCluster2() {
        if (cluster2 != null) {
            cluster2.close();
        }
    }
}
