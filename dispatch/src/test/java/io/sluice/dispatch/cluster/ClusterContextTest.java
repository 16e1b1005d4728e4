package io.sluice.dispatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The control plane's timeouts have the documented defaults and must fit together, the error naming the settings. */
class ClusterContextTest {
    @Test
    void defaultsAreThoseDocumented() {
        final ClusterContext c = new ClusterContext().validate();
        assertThat(TimeUnit.NANOSECONDS.toMillis(c.heartbeatIntervalNs())).isEqualTo(500);
        assertThat(TimeUnit.NANOSECONDS.toMillis(c.suspectTimeoutNs())).isEqualTo(1_500);
        assertThat(TimeUnit.NANOSECONDS.toMillis(c.deadTimeoutNs())).isEqualTo(4_000);
        assertThat(TimeUnit.NANOSECONDS.toMillis(c.deadTimeoutMaxNs())).isEqualTo(9_000);
        assertThat(TimeUnit.NANOSECONDS.toSeconds(c.clientTimeoutNs())).isEqualTo(10);
        assertThat(TimeUnit.NANOSECONDS.toMillis(c.connectTimeoutNs())).isEqualTo(1_000);
    }

    @Test
    void aDeadTimeoutMaxBelowTheDeadTimeoutIsRefused() {
        assertThatThrownBy(() -> new ClusterContext().deadTimeoutMaxNs(TimeUnit.SECONDS.toNanos(2)).validate())
                .hasMessageContaining(ClusterContext.DEAD_TIMEOUT_MAX_PROP_NAME);
    }

    @Test
    void timeoutsOutOfOrderAreRefusedNamingTheProperties() {
        assertThatThrownBy(() -> new ClusterContext().deadTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500)).validate())
                .hasMessageContaining(ClusterContext.DEAD_TIMEOUT_PROP_NAME)
                .hasMessageContaining(ClusterContext.SUSPECT_TIMEOUT_PROP_NAME);
        assertThatThrownBy(() -> new ClusterContext().clientTimeoutNs(1).validate())
                .hasMessageContaining(ClusterContext.CLIENT_TIMEOUT_PROP_NAME);
        assertThatThrownBy(() -> new ClusterContext().connectTimeoutNs(0).validate())
                .hasMessageContaining(ClusterContext.CONNECT_TIMEOUT_PROP_NAME);
    }
}
