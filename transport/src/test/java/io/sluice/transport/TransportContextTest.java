package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aeron.driver.ThreadingMode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TransportContextTest {
    @Test
    void defaultsAreTheMeasuredOnes() {
        final TransportContext context = new TransportContext();

        assertThat(context.threadingMode()).isEqualTo(ThreadingMode.SHARED);
        assertThat(context.idleKind()).isEqualTo(TransportContext.IdleKind.BACKOFF);
        assertThat(context.mtuLength()).isEqualTo(65504);
        assertThat(context.receiverWindow()).isEqualTo(2 * 1024 * 1024);
        assertThat(context.socketRcvbufLength()).isEqualTo(4 * 1024 * 1024);
        assertThat(context.socketSndbufLength()).isEqualTo(4 * 1024 * 1024);
        assertThat(context.clientLivenessTimeoutNs()).isEqualTo(TimeUnit.SECONDS.toNanos(30));
        assertThat(context.publicationUnblockTimeoutNs()).isGreaterThan(context.clientLivenessTimeoutNs());
        context.validate();
    }

    @Test
    void systemPropertiesOverrideDefaults() {
        System.setProperty(TransportContext.TERM_LENGTH_PROP_NAME, "1m");
        System.setProperty(TransportContext.THREADING_MODE_PROP_NAME, "dedicated");
        System.setProperty(TransportContext.IDLE_STRATEGY_PROP_NAME, "yielding");
        System.setProperty(TransportContext.CLIENT_LIVENESS_TIMEOUT_PROP_NAME, "40s");
        System.setProperty(TransportContext.PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME, "50s");
        try {
            final TransportContext context = new TransportContext();

            assertThat(context.termLength()).isEqualTo(1024 * 1024);
            assertThat(context.threadingMode()).isEqualTo(ThreadingMode.DEDICATED);
            assertThat(context.idleKind()).isEqualTo(TransportContext.IdleKind.YIELDING);
            assertThat(context.clientLivenessTimeoutNs()).isEqualTo(TimeUnit.SECONDS.toNanos(40));
            assertThat(context.publicationUnblockTimeoutNs()).isEqualTo(TimeUnit.SECONDS.toNanos(50));
        } finally {
            System.clearProperty(TransportContext.TERM_LENGTH_PROP_NAME);
            System.clearProperty(TransportContext.THREADING_MODE_PROP_NAME);
            System.clearProperty(TransportContext.IDLE_STRATEGY_PROP_NAME);
            System.clearProperty(TransportContext.CLIENT_LIVENESS_TIMEOUT_PROP_NAME);
            System.clearProperty(TransportContext.PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME);
        }
    }

    @Test
    void busySpinIsNotOnOffer() {
        System.setProperty(TransportContext.IDLE_STRATEGY_PROP_NAME, "busy-spin");
        try {
            assertThatThrownBy(TransportContext::new)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-Dsluice.transport.idle.strategy=busy-spin is not one of [BACKOFF, YIELDING, SLEEPING]");
        } finally {
            System.clearProperty(TransportContext.IDLE_STRATEGY_PROP_NAME);
        }
    }

    @Test
    void inconsistentSettingsNameThePropertyToChange() {
        assertThatThrownBy(() -> new TransportContext().publicationUnblockTimeoutNs(TimeUnit.SECONDS.toNanos(30)).validate())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must exceed the client liveness timeout")
                .hasMessageContaining(TransportContext.PUBLICATION_UNBLOCK_TIMEOUT_PROP_NAME);
        assertThatThrownBy(() -> new TransportContext().termLength(100_000).validate())
                .hasMessageContaining("power of two")
                .hasMessageContaining(TransportContext.TERM_LENGTH_PROP_NAME);
        assertThatThrownBy(() -> new TransportContext().termLength(64 * 1024).validate())
                .hasMessageContaining("MTU 65504 exceeds the max message length 8192 of term length 65536");
        assertThatThrownBy(() -> new TransportContext().mtuLength(1500).validate())
                .hasMessageContaining("multiple of 32");
    }
}
