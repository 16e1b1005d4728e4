package io.sluice.dispatch;

import static io.sluice.dispatch.ExchangeRun.pollUntilFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Liveness is not throughput: a sender held up by one destination for longer than the sender timeout
 * keeps its other receivers waiting, not failing; a sender that is truly silent still fails them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SenderHeartbeatTest {
    /** Buckets 0 and 1 on CN 0, buckets 2 and 3 on CN 1. */
    private static final Topology TOPOLOGY = new Topology(2, 2);
    private static final long SENDER_TIMEOUT_MS = 1_000;
    private static final int ROWS_PER_BATCH = 200;
    private EmbeddedCluster cluster;
    private int nextExchangeId = 1;

    @BeforeAll
    void start() {
        // 4-slot queues and 64 KiB terms, so that a receiver that does not poll soon holds its senders up.
        cluster = EmbeddedCluster.ipc(2, new TransportContext().termLength(64 * 1024).mtuLength(8192),
                new DispatchContext().queueCapacity(4)
                        .senderTimeoutNs(TimeUnit.MILLISECONDS.toNanos(SENDER_TIMEOUT_MS))
                        .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(200)));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Exchange exchange() {
        return Exchange.of(5, nextExchangeId++, TOPOLOGY, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 1);
    }

    /**
     * The sender of {@code blockedCn} first sends bucket 0 far more than its queue (CN 0) or CN 0's
     * stream (from CN 1) holds, then rows for every other bucket; the other CN's sender ends at once.
     * For three sender timeouts bucket 0 is not polled, and neither is any source of CN 0 when the sender
     * is on CN 1 (polling one would drain CN 0's stream for all of them, and the sender would not be held
     * up). The receivers polled hear only heartbeats in that time, from the same CN through their queue
     * or from the other CN as frames, and must neither fail nor finish; nor may those of CN 0 fail once
     * polled again, although what CN 1 told them waited behind bucket 0's rows.
     */
    @ParameterizedTest(name = "sender on CN {0}")
    @ValueSource(ints = {0, 1})
    void aSenderHeldUpByOneDestinationLongerThanTheTimeoutKeepsItsOtherReceiversWaiting(final int blockedCn)
            throws Exception {
        try (ExchangeRun run = new ExchangeRun(cluster, exchange())) {
            final List<List<Long>> expected = new ArrayList<>();
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                expected.add(new ArrayList<>());
            }
            final List<Batch> batches = new ArrayList<>();
            long nextId = 0;
            for (int i = 0; i < 60; i++) {
                batches.add(rows(0, nextId, expected));
                nextId += ROWS_PER_BATCH;
            }
            for (int b = 1; b < TOPOLOGY.bucketCount(); b++) {
                batches.add(rows(b, nextId, expected));
                nextId += ROWS_PER_BATCH;
            }
            run.startSender(blockedCn, 0, batches);
            run.startSender(1 - blockedCn, 0, List.of());

            final int firstPolled = blockedCn == 0 ? 1 : TOPOLOGY.firstBucketOf(1);
            pollNothingForThreeTimeouts(run, firstPolled);
            for (int b = firstPolled; b < TOPOLOGY.bucketCount(); b++) {
                final ExchangeSource source = run.sources[b];
                assertThat(source.isFinished()).as("bucket %d finished", b).isFalse();
                assertThat(source.missingEndOfStreams()).as("bucket %d awaits the held-up sender", b).isEqualTo(1);
                if (TOPOLOGY.cnOf(b) != blockedCn) {
                    assertThat(source.heartbeatsReceived()).as("heartbeat frames at bucket %d", b).isPositive();
                    assertThat(source.framesReceived()).as("other frames at bucket %d", b).isZero();
                }
            }

            run.receiveAll(60_000);
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                final List<Long> actual = run.idsByBucket.get(b);
                Collections.sort(actual);
                assertThat(actual).as("bucket %d", b).isEqualTo(expected.get(b));
            }
            assertThat(cluster.counters(run.exchange).droppedBatches()).isZero();
        }
    }

    /**
     * CN 0 reads nothing from its stream for three sender timeouts, so CN 1's sender, which has bucket 0's
     * rows to send, is held up by CN 0's back pressure and cannot tell bucket 1 it is alive either. When
     * CN 0 reads again, bucket 1 (whose only news, CN 0's end-of-stream, came before the pause) must not
     * take CN 1 for silent: the silence was CN 0's own.
     */
    @Test
    void theSourcesOfACnThatStoppedReadingItsStreamDoNotTakeTheSendersItHeldUpForSilent() throws Exception {
        try (ExchangeRun run = new ExchangeRun(cluster, exchange())) {
            final List<List<Long>> expected = new ArrayList<>();
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                expected.add(new ArrayList<>());
            }
            run.startSender(0, 0, List.of());
            final Deadline ended = Deadline.in(10_000, "CN 0's end-of-stream at buckets 0 and 1");
            while (run.sources[0].missingEndOfStreams() > 1 || run.sources[1].missingEndOfStreams() > 1) {
                ended.check();
                assertThat(run.sources[0].poll()).isNull();
                assertThat(run.sources[1].poll()).isNull();
                Thread.onSpinWait();
            }
            final List<Batch> batches = new ArrayList<>();
            long nextId = 0;
            for (int i = 0; i < 60; i++) {
                batches.add(rows(0, nextId, expected));
                nextId += ROWS_PER_BATCH;
            }
            for (int b = 1; b < TOPOLOGY.bucketCount(); b++) {
                batches.add(rows(b, nextId, expected));
                nextId += ROWS_PER_BATCH;
            }
            run.startSender(1, 0, batches);

            pollNothingForThreeTimeouts(run, TOPOLOGY.firstBucketOf(1));
            run.receiveAll(60_000);
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                assertThat(run.idsByBucket.get(b)).as("bucket %d", b).isEqualTo(expected.get(b));
            }
        }
    }

    @Test
    void aSenderOfOnlyEmptyBatchesForLongerThanTheTimeoutKeepsItsReceiversWaiting() throws Exception {
        try (ExchangeRun run = new ExchangeRun(cluster, exchange())) {
            final AtomicBoolean stop = new AtomicBoolean();
            run.startSender(0, 0, sink -> {
                final IdleStrategy idle = new BackoffIdleStrategy();
                while (!stop.get()) {
                    sink.send(TestBatches.batch(new long[0], 0));
                    idle.idle();
                }
            });
            run.startSender(1, 0, List.of());
            pollNothingForThreeTimeouts(run, 0);
            for (int b = TOPOLOGY.firstBucketOf(1); b < TOPOLOGY.bucketCount(); b++) {
                assertThat(run.sources[b].heartbeatsReceived()).as("heartbeat frames at bucket %d", b).isPositive();
            }
            stop.set(true);
            run.receiveAll(60_000);
            assertThat(run.idsByBucket).allSatisfy(ids -> assertThat(ids).isEmpty());
        }
    }

    @Test
    void aSinkOpenedAndAbandonedIsSilentAndFailsItsReceiversAfterTheTimeout() throws Exception {
        final Exchange exchange = exchange();
        try (ExchangeRun run = new ExchangeRun(cluster, exchange);
             ExchangeSink abandoned = cluster.node(1).openSink(exchange, 0)) {
            run.startSender(0, 0, List.of());
            final DispatchException e = pollUntilFailure(run.sources[0], 30_000);
            assertThat(e).hasMessageContaining("heard nothing for " + SENDER_TIMEOUT_MS + " ms")
                    .hasMessageContaining("end-of-stream from CN 1 pipeline 0")
                    .hasMessageContaining(DispatchContext.SENDER_TIMEOUT_PROP_NAME);
            assertThat(abandoned.isDone()).isFalse();
        }
    }

    /**
     * Polls the sources of bucket {@code fromBucket} on for three sender timeouts, in which none may
     * yield a batch, and no receiver or sender may fail.
     */
    private static void pollNothingForThreeTimeouts(final ExchangeRun run, final int fromBucket) {
        final long untilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * SENDER_TIMEOUT_MS);
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (System.nanoTime() - untilNs < 0) {
            for (int b = fromBucket; b < TOPOLOGY.bucketCount(); b++) {
                assertThat(run.sources[b].poll()).as("a batch at bucket %d", b).isNull();
            }
            assertThat(run.senderFailure.get()).isNull();
            idle.idle();
        }
    }

    /** A batch of {@link #ROWS_PER_BATCH} rows from {@code firstId} for {@code bucket}, noted in {@code expected}. */
    private static Batch rows(final int bucket, final long firstId, final List<List<Long>> expected) {
        final long[] ids = new long[ROWS_PER_BATCH];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = firstId + i;
            expected.get(bucket).add(ids[i]);
        }
        return TestBatches.batch(ids, bucket);
    }
}
