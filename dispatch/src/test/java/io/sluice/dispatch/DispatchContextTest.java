package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Dispatch settings: defaults that hold together, and values that cannot work rejected by name. */
class DispatchContextTest {
    @Test
    void theHeartbeatIntervalDefaultsWellWithinTheSenderTimeoutAndIsReadFromItsProperty() {
        assertThat(DispatchContext.HEARTBEAT_INTERVAL_DEFAULT_NS * 10)
                .isLessThan(DispatchContext.SENDER_TIMEOUT_DEFAULT_NS);
        System.setProperty(DispatchContext.HEARTBEAT_INTERVAL_PROP_NAME, "250ms");
        try {
            assertThat(new DispatchContext().validate().heartbeatIntervalNs())
                    .isEqualTo(TimeUnit.MILLISECONDS.toNanos(250));
        } finally {
            System.clearProperty(DispatchContext.HEARTBEAT_INTERVAL_PROP_NAME);
        }
    }

    @Test
    void aHeartbeatIntervalNotBelowTheSenderTimeoutIsRejectedNamingBothSettings() {
        final DispatchContext context = new DispatchContext().senderTimeoutNs(TimeUnit.SECONDS.toNanos(2))
                .heartbeatIntervalNs(TimeUnit.SECONDS.toNanos(2));
        assertThatThrownBy(context::validate).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heartbeat interval")
                .hasMessageContaining(DispatchContext.HEARTBEAT_INTERVAL_PROP_NAME)
                .hasMessageContaining(DispatchContext.SENDER_TIMEOUT_PROP_NAME);

        context.heartbeatIntervalNs(0);
        assertThatThrownBy(context::validate).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(DispatchContext.HEARTBEAT_INTERVAL_PROP_NAME);
    }

    @Test
    void aRouteRetentionThatIsNotPositiveIsRejectedByName() {
        assertThat(new DispatchContext().validate().routeRetentionNs())
                .isEqualTo(DispatchContext.ROUTE_RETENTION_DEFAULT_NS);
        assertThatThrownBy(() -> new DispatchContext().routeRetentionNs(0).validate())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(DispatchContext.ROUTE_RETENTION_PROP_NAME);
    }
}
