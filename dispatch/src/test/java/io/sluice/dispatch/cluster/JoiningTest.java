package io.sluice.dispatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.dispatch.DispatchContext;
import io.sluice.dispatch.control.ControlLinkException;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.MemberState;
import io.sluice.storage.Store;
import io.sluice.storage.StoreCatalog;
import io.sluice.transport.EmbeddedDriver;
import io.sluice.transport.Endpoint;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joining a coordinator, as a user meets it: a CN its process announced is marked launched, one started
 * apart is not and is named so when it joins; a second CN of a live name is refused in one sentence,
 * said once; nothing receiving at the coordinator's address is said within the connect timeout, by a
 * client (which fails) and by a CN (which keeps trying), naming the address and what to start there.
 */
class JoiningTest {
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(60);

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

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket free = new DatagramSocket(0)) {
            return free.getLocalPort();
        }
    }

    @Test
    void aLaunchedCnIsMarkedOneStartedApartIsNamedAndASecondOfALiveNameIsRefusedOnce() {
        final Store store = Store.create(dir.resolve("store"));
        final long pid = ProcessHandle.current().pid();
        final ClusterContext context = new ClusterContext();
        final EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
        final StoreCatalog tables = new StoreCatalog(store);
        Coordinator coordinator = null;
        CnServer own = null;
        CnServer apart = null;
        CnServer twin = null;
        try {
            coordinator = Coordinator.ipc(driver.aeron(), store, context, driver.context(), log::add).start();
            coordinator.launching("own", pid);
            own = CnServer.ipc(driver.aeron(), 0, coordinator.control(), "own", 1, tables, context, driver.context(),
                    new DispatchContext(), log::add).start();
            apart = CnServer.ipc(driver.aeron(), 1, coordinator.control(), "apart", 2, tables, context,
                    driver.context(), new DispatchContext(), log::add).start();
            final Coordinator c = coordinator;
            await(() -> c.membership().size() == 2
                    && c.membership().stream().allMatch(m -> m.state() == MemberState.ALIVE), "both CNs to join");
            final List<MemberStatus> members = coordinator.membership();
            assertThat(members).filteredOn(m -> m.name().equals("own")).singleElement()
                    .satisfies(m -> assertThat(m.launched()).isTrue()).satisfies(m -> assertThat(m.pid()).isEqualTo(pid));
            assertThat(members).filteredOn(m -> m.name().equals("apart")).singleElement()
                    .satisfies(m -> assertThat(m.launched()).isFalse());
            assertThat(log).anyMatch(l -> l.startsWith("coordinator: cn apart joined from ") && l.contains("with 2 cores")
                    && l.endsWith("it was started apart from this process (pid " + pid + "), which does not stop it"));
            assertThat(log).anyMatch(l -> l.startsWith("coordinator: cn own joined from ") && l.contains("with 1 core:")
                    && !l.contains("apart"));

            twin = CnServer.ipc(driver.aeron(), 2, coordinator.control(), "own", 1, tables, context, driver.context(),
                    new DispatchContext(), log::add).start();
            final String refusal = twin.rejected().orTimeout(60, TimeUnit.SECONDS).join();
            assertThat(refusal).startsWith("the coordinator at ").contains(" refused CN own: a CN of that name is already"
                    + " a member (pid " + pid + " at ").endsWith("): give each CN its own --name");
            assertThat(refusal.split("refused", -1)).as("'refused' once in: " + refusal).hasSize(2);
            assertThat(log).noneMatch(l -> l.contains("a CN of that name is already a member"));
        } finally {
            CloseHelper.closeAll(twin, apart, own, coordinator, tables, driver);
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aClientFailsWithinTheConnectTimeoutWhenNothingReceivesAtTheAddress() throws Exception {
        final int port = freeUdpPort();
        // A client timeout of ten minutes: the failure must come from the connect timeout, not from it.
        final ClusterContext context = new ClusterContext().clientTimeoutNs(TimeUnit.MINUTES.toNanos(10));
        assertThatThrownBy(() -> Session.connect(new Endpoint("127.0.0.1", port), Session.defaultTransport(), context))
                .isInstanceOf(ControlLinkException.class)
                .hasMessage("no coordinator at 127.0.0.1:" + port + ": nothing received there within 1000 ms. Start one"
                        + " there (sluice coordinator --listen 127.0.0.1:" + port + " --store DIR, or sluice cluster up"
                        + " --cn N --cores K --store DIR --listen 127.0.0.1:" + port + "), or give the address a"
                        + " running coordinator printed ('coordinator listening on HOST:PORT'); over a slow network give it"
                        + " longer, e.g. -D" + ClusterContext.CONNECT_TIMEOUT_PROP_NAME + "=5s");
        try (EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
             ClusterClient client = ClusterClient.udp(driver.aeron(), new Endpoint("127.0.0.1", port), context,
                     driver.context())) {
            assertThatThrownBy(client::status).as("a request without awaitReachable first")
                    .isInstanceOf(ControlLinkException.class).hasMessageStartingWith("no coordinator at 127.0.0.1:" + port);
        }
    }

    @Test
    void aCnSaysWithinTheConnectTimeoutThatNothingReceivesAtTheAddressAndKeepsTrying() throws Exception {
        final int port = freeUdpPort();
        final Store store = Store.create(dir.resolve("store"));
        final EmbeddedDriver driver = EmbeddedDriver.launch(Session.defaultTransport());
        final StoreCatalog tables = new StoreCatalog(store);
        CnServer cn = null;
        try {
            cn = CnServer.udp(driver.aeron(), new Endpoint("127.0.0.1", 0), new Endpoint("127.0.0.1", port), "lonely", 1,
                    tables, new ClusterContext(), driver.context(), new DispatchContext(), log::add).start();
            await(() -> log.stream().anyMatch(l -> l.startsWith("cn lonely: nothing receives at 127.0.0.1:" + port
                    + ", where the coordinator should be, after ")), "the CN to say nothing receives there");
            assertThat(log).anyMatch(l -> l.endsWith("ms; still trying. Start the coordinator there (sluice coordinator"
                    + " --listen 127.0.0.1:" + port + " --store DIR), or give this CN the --coordinator address the"
                    + " coordinator printed"));
            assertThat(cn.rejected()).isNotDone();
        } finally {
            CloseHelper.closeAll(cn, tables, driver);
        }
    }
}
