package io.sluice.dispatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.transport.EmbeddedDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CN whose heartbeats stop while it is alive (its control loop starved by its own workers on an
 * oversubscribed machine). Made deterministic by giving the CN a heartbeat interval of minutes against a
 * coordinator whose dead timeout is 200 ms: a CN of the coordinator's own process stays a member however
 * long it is silent; a CN of another process is taken for dead, told so, and registers again at once
 * (its own dead timeout, minutes, would have it wait that long).
 */
class StarvedHeartbeatsTest {
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @TempDir
    Path dir;

    private final Queue<String> log = new ConcurrentLinkedQueue<>();

    private static void await(final BooleanSupplier condition, final String what) {
        final long deadline = System.nanoTime() + DEADLINE_NS;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** A coordinator quick to take silence for death. */
    private static ClusterContext impatient() {
        return new ClusterContext().heartbeatIntervalNs(50 * MS).suspectTimeoutNs(100 * MS).deadTimeoutNs(200 * MS)
                .deadTimeoutMaxNs(200 * MS);
    }

    /** A CN that heartbeats once when it joins and then not for ten minutes, and waits as long for its coordinator. */
    private static ClusterContext starved() {
        final long minute = TimeUnit.MINUTES.toNanos(1);
        return new ClusterContext().heartbeatIntervalNs(10 * minute).suspectTimeoutNs(11 * minute)
                .deadTimeoutNs(12 * minute).deadTimeoutMaxNs(12 * minute).clientTimeoutNs(20 * minute);
    }

    private static MemberStatus member(final Coordinator coordinator, final String name) {
        for (final MemberStatus m : coordinator.membership()) {
            if (m.name().equals(name)) {
                return m;
            }
        }
        return null;
    }

    @Test
    void aCnOfTheCoordinatorsOwnProcessStaysAMemberThroughSilenceFarPastTheDeadTimeout() {
        final Store store = Store.create(dir.resolve("store"));
        final EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
        final StoreCatalog tables = new StoreCatalog(store);
        Coordinator coordinator = null;
        CnServer cn = null;
        try {
            coordinator = Coordinator.ipc(driver.aeron(), store, impatient(), driver.context(), log::add).start();
            cn = CnServer.ipc(driver.aeron(), 0, coordinator.control(), "busy", 1, tables, starved(), driver.context(),
                    new DispatchContext(), log::add);
            // As an embedded Session does for each of its CNs.
            coordinator.inProcess(cn);
            cn.coordinatorInProcess().start();
            final Coordinator c = coordinator;
            final CnServer busy = cn;
            await(busy::isMember, "the CN to join");
            // Silent for ten of the coordinator's dead timeouts (or gone, which fails below).
            await(() -> member(c, "busy") == null || member(c, "busy").sinceHeardMillis() > 2_000,
                    "the CN to be silent for 2 s");
            assertThat(member(c, "busy")).as("the silent CN of the coordinator's process; log: " + log).isNotNull()
                    .satisfies(m -> assertThat(m.state()).isEqualTo(MemberState.SUSPECT));
            assertThat(log).noneMatch(l -> l.contains("died or stalled"));
            assertThat(busy.isMember()).isTrue();

            cn.close();
            cn = null;
            await(() -> member(c, "busy") == null, "the closed CN to leave");
        } finally {
            CloseHelper.closeAll(cn, coordinator, tables, driver);
        }
    }

    @Test
    void aCnOfAnotherProcessTakenForDeadWhileItRunsIsToldAndRegistersAgainAtOnce() {
        final Store store = Store.create(dir.resolve("store"));
        final EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
        final StoreCatalog tables = new StoreCatalog(store);
        Coordinator coordinator = null;
        CnServer cn = null;
        try {
            coordinator = Coordinator.ipc(driver.aeron(), store, impatient(), driver.context(), log::add).start();
            // Not announced as in-process: the coordinator treats it as a CN of another process.
            cn = CnServer.ipc(driver.aeron(), 0, coordinator.control(), "slow", 1, tables, starved(), driver.context(),
                    new DispatchContext(), log::add).start();
            await(() -> log.stream().filter(l -> l.startsWith("coordinator: cn slow joined")).count() >= 2,
                    "the CN to join, be taken for dead and join again");
            final List<String> lines = List.copyOf(log);
            assertThat(lines).anyMatch(l -> l.startsWith("coordinator: CN slow (pid ") && l.contains("died or stalled:"
                    + " no heartbeat for ") && l.contains("is the larger of " + ClusterContext.DEAD_TIMEOUT_PROP_NAME));
            assertThat(lines).anyMatch(l -> l.startsWith("cn slow: the coordinator at ")
                    && l.contains(" took this CN for dead (CN slow (pid ") && l.endsWith("); registering again"));
        } finally {
            CloseHelper.closeAll(cn, coordinator, tables, driver);
        }
    }
}
