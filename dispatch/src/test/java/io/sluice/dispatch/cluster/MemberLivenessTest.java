package io.sluice.dispatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.MemberState;
import io.sluice.dispatch.control.StreamAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** When the coordinator takes a CN for suspect and for dead, from its heartbeats' arrival times. */
class MemberLivenessTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final ClusterContext CONTEXT = new ClusterContext().validate();

    private static Member member(final long nowNs) {
        final StreamAddress control = new StreamAddress("aeron:udp?endpoint=127.0.0.1:40000", 10);
        final Register r = new Register(control, "cn0", 1, new StreamAddress("aeron:udp?endpoint=127.0.0.1:40000", 11),
                1, 1, "dev", 0);
        return new Member(1, r, true, null, nowNs);
    }

    @Test
    void aCnHeardRegularlyIsDeadAfterTheDeadTimeout() {
        final Member m = member(0);
        long t = 0;
        for (int i = 0; i < 100; i++) {
            t += 500 * MS;
            m.heard(t);
        }
        assertThat(m.deadTimeoutNs(CONTEXT)).isEqualTo(CONTEXT.deadTimeoutNs());
        assertThat(m.state(t + 1_000 * MS, CONTEXT)).isEqualTo(MemberState.ALIVE);
        assertThat(m.state(t + 2_000 * MS, CONTEXT)).isEqualTo(MemberState.SUSPECT);
        assertThat(m.state(t + CONTEXT.deadTimeoutNs() + MS, CONTEXT)).isEqualTo(MemberState.DEAD);
    }

    @Test
    void timeTheCoordinatorItselfWasPausedIsNotSilence() {
        final Member m = member(0);
        m.heard(500 * MS);
        // The coordinator's loop stood still for 6 s (a long collection of a JVM holding it and its CNs).
        assertThat(m.state(6_600 * MS, CONTEXT)).isEqualTo(MemberState.DEAD);
        m.excuse(6_000 * MS);
        assertThat(m.state(6_600 * MS, CONTEXT)).isEqualTo(MemberState.ALIVE);
        // Silence after the pause still counts.
        assertThat(m.state(6_500 * MS + CONTEXT.deadTimeoutNs() + MS, CONTEXT)).isEqualTo(MemberState.DEAD);
    }

    @Test
    void aCnWhoseHeartbeatsCameLateIsGivenLongerUpToTheMaximum() {
        final Member m = member(0);
        m.heard(500 * MS);
        // A 2 s pause (a long collection on a loaded machine) between two heartbeats.
        m.heard(2_500 * MS);
        m.heard(3_000 * MS);
        assertThat(m.deadTimeoutNs(CONTEXT)).isEqualTo(8_000 * MS);
        assertThat(m.state(3_000 * MS + 7_000 * MS, CONTEXT)).isEqualTo(MemberState.SUSPECT);
        m.heard(10_000 * MS);
        // A 7 s gap would ask for 28 s: capped at the maximum, so a stalled CN still fails within 10 s.
        assertThat(m.deadTimeoutNs(CONTEXT)).isEqualTo(CONTEXT.deadTimeoutMaxNs());
    }

    @Test
    void aCnOfTheCoordinatorsOwnProcessIsNeverDeadBySilenceOnlyOnceItsServerIsClosed() {
        final AtomicBoolean runs = new AtomicBoolean(true);
        final StreamAddress control = new StreamAddress("aeron:ipc", 10);
        final Register r = new Register(control, "cn0", 8, new StreamAddress("aeron:ipc", 11), 1, 1, "dev", 0);
        final Member m = new Member(1, r, false, null, 0, runs::get);
        m.heard(500 * MS);
        // Its workers starve its control loop far past the longest dead timeout: its JVM is alive, so it is too.
        final long starved = 500 * MS + 10 * CONTEXT.deadTimeoutMaxNs();
        assertThat(m.state(starved, CONTEXT)).isEqualTo(MemberState.SUSPECT);
        assertThat(m.state(600 * MS, CONTEXT)).isEqualTo(MemberState.ALIVE);
        runs.set(false);
        assertThat(m.state(600 * MS, CONTEXT)).isEqualTo(MemberState.DEAD);
    }

    @Test
    void aLongGapIsForgottenAfterManyRegularHeartbeats() {
        final Member m = member(0);
        m.heard(2_000 * MS);
        long t = 2_000 * MS;
        for (int i = 0; i < 200; i++) {
            t += 500 * MS;
            m.heard(t);
        }
        assertThat(m.deadTimeoutNs(CONTEXT)).isEqualTo(CONTEXT.deadTimeoutNs());
    }
}
