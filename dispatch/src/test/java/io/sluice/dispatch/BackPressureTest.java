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
import org.junit.jupiter.api.Test;

/** Two-slot local queues, 64 KiB terms: senders wait on full queues and back-pressured streams, nothing is lost. */
class BackPressureTest {
    @Test
    void tinyQueuesLoseNothing() throws Exception {
        final ExchangeCounters counters = run(2);
        assertThat(counters.localQueueWaits()).as("senders must have found full local queues").isPositive();
    }

    @Test
    void smallTermsLoseNothing() throws Exception {
        // Queues large enough for every local batch: what blocks the senders is Aeron's flow control.
        final ExchangeCounters counters = run(1024);
        assertThat(counters.localQueueWaits()).isZero();
        assertThat(counters.remoteBackPressureRetries()).as("streams must have back-pressured senders").isPositive();
    }

    /** TO_OWNER on 3 x 2 with 64 KiB terms, receiving only once every sender has blocked. */
    private static ExchangeCounters run(final int queueCapacity) throws Exception {
        final Topology topology = new Topology(3, 2);
        final TransportContext transport = new TransportContext().termLength(64 * 1024).mtuLength(8192);
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(3, transport,
                new DispatchContext().queueCapacity(queueCapacity))) {
            final Exchange exchange = Exchange.of(9, 1, topology, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 2);
            try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
                final SplittableRandom random = new SplittableRandom(99);
                final List<List<Long>> expected = new ArrayList<>();
                for (int b = 0; b < topology.bucketCount(); b++) {
                    expected.add(new ArrayList<>());
                }
                for (int cn = 0; cn < 3; cn++) {
                    for (int p = 0; p < 2; p++) {
                        // At most 200 rows: 3.2 KiB of payload, within the 8 KiB frames of a 64 KiB term.
                        final List<Batch> batches = TestBatches.random(cn * 2 + p, 400, 200, topology.bucketCount(),
                                random.split());
                        for (final Batch batch : batches) {
                            TestBatches.collectIds(batch, expected.get(batch.shuffleIdx()));
                        }
                        run.startSender(cn, p, batches);
                    }
                }
                run.awaitSendersBlocked(60_000);
                run.receiveAll(180_000);
                for (int b = 0; b < topology.bucketCount(); b++) {
                    final List<Long> actual = run.idsByBucket.get(b);
                    Collections.sort(actual);
                    Collections.sort(expected.get(b));
                    assertThat(actual).as("bucket %d", b).isEqualTo(expected.get(b));
                }
                final ExchangeCounters counters = cluster.counters(exchange);
                assertThat(counters.droppedBatches()).isZero();
                return counters;
            }
        }
    }
}
