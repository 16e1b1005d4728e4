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

/** The same exchange code over aeron:udp on loopback, each CN with a media driver of its own. */
class UdpExchangeTest {
    @Test
    void toOwnerOverUdpLoopbackDeliversEveryRowOnce() throws Exception {
        final Topology topology = new Topology(3, 2);
        final TransportContext transport = new TransportContext().termLength(1024 * 1024);
        try (EmbeddedCluster cluster = EmbeddedCluster.udp(3, "127.0.0.1", EmbeddedCluster.freeLoopbackPorts(3), transport,
                new DispatchContext())) {
            assertThat(cluster.node(1).channels().of(1)).startsWith("aeron:udp?endpoint=127.0.0.1:");
            final Exchange exchange = Exchange.of(11, 1, topology, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 1);
            try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
                final SplittableRandom random = new SplittableRandom(5);
                final List<List<Long>> expected = new ArrayList<>();
                for (int b = 0; b < topology.bucketCount(); b++) {
                    expected.add(new ArrayList<>());
                }
                long remoteRows = 0;
                for (int cn = 0; cn < 3; cn++) {
                    final List<Batch> batches = TestBatches.random(cn, 50, 500, topology.bucketCount(), random.split());
                    for (final Batch batch : batches) {
                        TestBatches.collectIds(batch, expected.get(batch.shuffleIdx()));
                        remoteRows += topology.cnOf(batch.shuffleIdx()) == cn ? 0 : batch.rowCount();
                    }
                    run.startSender(cn, 0, batches);
                }
                run.receiveAll(120_000);
                for (int b = 0; b < topology.bucketCount(); b++) {
                    final List<Long> actual = run.idsByBucket.get(b);
                    Collections.sort(actual);
                    Collections.sort(expected.get(b));
                    assertThat(actual).as("bucket %d", b).isEqualTo(expected.get(b));
                }
                assertThat(cluster.counters(exchange).remoteRows()).isEqualTo(remoteRows).isPositive();
            }
        }
    }
}
