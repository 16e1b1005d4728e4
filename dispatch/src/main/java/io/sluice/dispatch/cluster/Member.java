package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.CachedBlocks;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.MemberState;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.transport.DoorbellProbe;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One CN in the coordinator's membership: what it registered with, the peer its control messages go
 * to, and when the coordinator last heard from it. Used by the coordinator's control loop only.
 */
final class Member {
    /** How many gaps a longest gap is remembered for. */
    private static final int GAP_WINDOW = 64;

    final long memberId;
    final String name;
    final int cores;
    final StreamAddress control;
    final StreamAddress data;
    final long pid;
    final long incarnation;
    /** The UDP port of its doorbell on its control host (0: none). */
    final int doorbell;
    /** Whether the coordinator's own process started it (see {@link Membership#launching}). */
    final boolean launched;
    final Peer peer;
    /**
     * Whether its server still runs, for a CN in the coordinator's own process (an embedded cluster); null for a
     * CN of another process. Such a CN lives as long as this JVM does: its silence is starvation by its own
     * workers or collections, never death, so only this says it is gone.
     */
    private final BooleanSupplier runsInProcess;
    long lastHeardNs;
    /** The longest gap between two of its messages over the last {@link #GAP_WINDOW} (a decaying maximum). */
    private long longestGapNs;
    private int gapsSinceLongest;
    /** Probes whether its process still exists while it is silent; null while it is heard. */
    private DoorbellProbe probe;
    int activeQueries;
    long rssBytes;
    long rejectedMessages;
    long retransmits;
    /** What its block cache held when it last finished a query (empty until then). */
    List<CachedBlocks> caches = List.of();

    Member(final long memberId, final Register register, final boolean launched, final Peer peer, final long nowNs) {
        this(memberId, register, launched, peer, nowNs, null);
    }

    /** @param runsInProcess whether its server still runs, for a CN of the coordinator's own process; else null */
    Member(final long memberId, final Register register, final boolean launched, final Peer peer, final long nowNs,
            final BooleanSupplier runsInProcess) {
        this.memberId = memberId;
        this.name = register.name();
        this.cores = register.cores();
        this.control = register.replyTo();
        this.data = register.data();
        this.pid = register.pid();
        this.incarnation = register.incarnation();
        this.doorbell = register.doorbell();
        this.launched = launched;
        this.peer = peer;
        this.runsInProcess = runsInProcess;
        this.lastHeardNs = nowNs;
    }

    /** It spoke at {@code nowNs}: any message is a sign of life. */
    void heard(final long nowNs) {
        final long gap = nowNs - lastHeardNs;
        if (gap >= longestGapNs || ++gapsSinceLongest > GAP_WINDOW) {
            longestGapNs = gap;
            gapsSinceLongest = 0;
        }
        lastHeardNs = nowNs;
        if (probe != null) {
            probe.close();
            probe = null;
        }
    }

    /**
     * The coordinator's own control loop did not run for {@code pausedNs} (a collection or a stall of its whole
     * process, which in one JVM stops the CNs too): that time is not counted as this member's silence.
     */
    void excuse(final long pausedNs) {
        lastHeardNs += pausedNs;
    }

    /**
     * How long it may be silent before it is dead: four times its longest recent gap (a CN whose
     * heartbeats come late under load or collections is given more), at least the dead timeout and at
     * most its maximum.
     */
    long deadTimeoutNs(final ClusterContext context) {
        return Math.min(context.deadTimeoutMaxNs(), Math.max(context.deadTimeoutNs(), 4 * longestGapNs));
    }

    /**
     * Alive, suspect after the suspect timeout of silence, dead after its dead timeout; a CN of this process is
     * dead only once its server is closed, however long it is silent.
     */
    MemberState state(final long nowNs, final ClusterContext context) {
        final long silence = nowNs - lastHeardNs;
        if (runsInProcess != null) {
            return !runsInProcess.getAsBoolean() ? MemberState.DEAD
                    : silence > context.suspectTimeoutNs() ? MemberState.SUSPECT : MemberState.ALIVE;
        }
        return silence > deadTimeoutNs(context) ? MemberState.DEAD
                : silence > context.suspectTimeoutNs() ? MemberState.SUSPECT : MemberState.ALIVE;
    }

    /** Whether it runs in the coordinator's own process (see {@link #state}). */
    boolean inProcess() {
        return runsInProcess != null;
    }

    /**
     * Whether its process is known to be gone: its host answered a ring at its doorbell with "port
     * closed". Rings once per call; only a suspect member with a doorbell is asked.
     */
    boolean processGone() {
        if (doorbell == 0 || host().isEmpty()) {
            return false;
        }
        if (probe == null) {
            probe = new DoorbellProbe(host(), doorbell);
        }
        return probe.gone();
    }

    /** Releases what it holds when it leaves. */
    void close() {
        if (probe != null) {
            probe.close();
            probe = null;
        }
        peer.close();
    }

    MemberStatus status(final long nowNs, final ClusterContext context) {
        return new MemberStatus(name, memberId, endpoint(), cores, state(nowNs, context),
                TimeUnit.NANOSECONDS.toMillis(nowNs - lastHeardNs), activeQueries, rssBytes, rejectedMessages,
                retransmits, pid, launched);
    }

    /** Where it receives, as {@code cluster status} shows it: host:port for UDP, the stream for IPC. */
    String endpoint() {
        final String prefix = "aeron:udp?endpoint=";
        return control.channel().startsWith(prefix) ? control.channel().substring(prefix.length())
                : control.channel() + " stream " + control.stream();
    }

    /** The host it receives control messages on ("" for IPC). */
    String host() {
        return control.host();
    }

    /** "CN name (pid p at endpoint)", for messages. */
    String describe() {
        return "CN " + name + " (pid " + pid + " at " + endpoint() + ")";
    }
}
