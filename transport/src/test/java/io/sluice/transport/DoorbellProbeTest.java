package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DoorbellProbeTest {
    @Test
    void aProbeLearnsThatTheDoorbellIsGoneOnceItsPortClosedAndNothingWhileItIsOpen() {
        final ProcessActivity activity = new ProcessActivity(TimeUnit.SECONDS.toNanos(1));
        final Doorbell doorbell = Doorbell.open("127.0.0.1", activity, "probed");
        try (DoorbellProbe probe = new DoorbellProbe("127.0.0.1", doorbell.port())) {
            for (int i = 0; i < 5; i++) {
                assertThat(probe.gone()).as("ring %d to an open doorbell", i).isFalse();
            }
            final Deadline rung = Deadline.in(10_000, "the doorbell to hear the probe");
            while (doorbell.rings() == 0) {
                rung.check();
                Thread.onSpinWait();
            }
            doorbell.close();
            final Deadline deadline = Deadline.in(10_000, "the probe to learn the port is closed");
            while (!probe.gone()) {
                deadline.check();
                Thread.onSpinWait();
            }
        } finally {
            doorbell.close();
        }
    }
}
