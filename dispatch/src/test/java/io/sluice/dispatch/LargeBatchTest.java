package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Full 8192-row batches through 64 KiB terms, whose frames hold at most 8 KiB: split, never refused or lost. */
class LargeBatchTest {
    @Test
    void batchesLargerThanAFrameAreSplitAndArriveWhole() throws Exception {
        final Topology topology = new Topology(2, 1);
        final TransportContext transport = new TransportContext().termLength(64 * 1024).mtuLength(8192);
        try (EmbeddedCluster cluster = EmbeddedCluster.ipc(2, transport, new DispatchContext())) {
            final Exchange exchange = Exchange.of(5, 1, topology, DispatchMode.BROADCAST, TestBatches.SCHEMA, 1);
            try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
                final List<Long> expected = new ArrayList<>();
                for (int cn = 0; cn < 2; cn++) {
                    final List<Batch> batches = new ArrayList<>();
                    for (int b = 0; b < 3; b++) {
                        final long[] ids = new long[8192];
                        for (int i = 0; i < ids.length; i++) {
                            ids[i] = cn * 1_000_000L + b * 10_000L + i;
                            expected.add(ids[i]);
                        }
                        batches.add(TestBatches.batch(ids, -1));
                    }
                    run.startSender(cn, 0, batches);
                }
                run.receiveAll(120_000);
                Collections.sort(expected);
                for (int b = 0; b < 2; b++) {
                    final List<Long> actual = run.idsByBucket.get(b);
                    Collections.sort(actual);
                    assertThat(actual).as("bucket %d", b).isEqualTo(expected);
                }
                assertThat(cluster.counters(exchange).splitBatches()).isPositive();
            }
        }
    }
}
