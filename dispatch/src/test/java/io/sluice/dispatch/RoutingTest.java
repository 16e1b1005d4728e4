package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The destinations each mode picks, without any transport. */
class RoutingTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);

    private static int[] route(final DispatchMode mode, final int senderCn, final int shuffleIdx) {
        final Exchange exchange = Exchange.of(1, 1, TOPOLOGY, mode, TestBatches.SCHEMA, 1);
        final Routing routing = new Routing(exchange, senderCn, 0);
        final int[] out = new int[routing.maxDestinations()];
        return Arrays.copyOf(out, routing.route(shuffleIdx, out));
    }

    @Test
    void eachModePicksItsDestinations() {
        assertThat(route(DispatchMode.TO_OWNER, 0, 5)).containsExactly(5);
        assertThat(route(DispatchMode.LOCAL_ONLY, 0, 5)).containsExactly(1);
        assertThat(route(DispatchMode.LOCAL_ONLY, 2, 2)).containsExactly(4);
        assertThat(route(DispatchMode.ALL_CN, 1, 3)).containsExactly(1, 3, 5);
        assertThat(route(DispatchMode.BROADCAST, 1, 0)).as("one copy per CN, to its first core").containsExactly(0, 2, 4);
        assertThat(route(DispatchMode.BROADCAST, 1, Batch.NO_SHUFFLE_IDX)).containsExactly(0, 2, 4);
    }

    @Test
    void anyGoesRoundRobinOverEveryDestination() {
        final Exchange exchange = Exchange.of(1, 1, TOPOLOGY, DispatchMode.ANY, TestBatches.SCHEMA, 1);
        final Routing routing = new Routing(exchange, 1, 0);
        final int[] out = new int[6];
        final int[] seen = new int[6];
        for (int i = 0; i < 12; i++) {
            assertThat(routing.route(Batch.NO_SHUFFLE_IDX, out)).isEqualTo(1);
            seen[out[0]]++;
        }
        assertThat(seen).containsOnly(2);
    }

    @Test
    void gatherGoesToItsOneBucket() {
        final Exchange exchange = Exchange.gather(1, 1, TOPOLOGY, TestBatches.SCHEMA, 1, 4);
        final int[] out = new int[6];
        assertThat(new Routing(exchange, 2, 0).route(Batch.NO_SHUFFLE_IDX, out)).isEqualTo(1);
        assertThat(out[0]).isEqualTo(4);
        assertThat(exchange.receives(4)).isTrue();
        assertThat(exchange.receives(0)).isFalse();
    }

    @Test
    void anUntaggedOrOutOfRangeBatchIsRefusedWithTheFix() {
        assertThatThrownBy(() -> route(DispatchMode.TO_OWNER, 0, Batch.NO_SHUFFLE_IDX))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CN 0").hasMessageContaining("put a shuffle operator before the dispatch");
        assertThatThrownBy(() -> route(DispatchMode.ALL_CN, 0, 6)).hasMessageContaining("bucket 0..5");
    }

    @Test
    void eachCnReceivesOnOneStreamOfItsOwnAndGatherNamesABucket() {
        final Channels ipc = Channels.ipc(3);
        assertThat(ipc.of(0)).isEqualTo(ipc.of(2)).isEqualTo("aeron:ipc");
        // CNs on one driver share the IPC channel: only the stream tells them apart.
        assertThat(ipc.streamOf(0)).isNotEqualTo(ipc.streamOf(1)).isNotEqualTo(ipc.streamOf(2));
        assertThat(Channels.udp("127.0.0.1", 4000, 3).of(2)).isEqualTo("aeron:udp?endpoint=127.0.0.1:4002");
        assertThatThrownBy(() -> ipc.streamOf(3)).hasMessageContaining("CN 3 has no channel");
        assertThatThrownBy(() -> Exchange.gather(1, 1, TOPOLOGY, TestBatches.SCHEMA, 1, 6))
                .hasMessageContaining("gather bucket 6");
    }
}
