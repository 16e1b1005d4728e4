package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage.Accept;
import io.sluice.dispatch.control.ControlMessage.CnHeartbeat;
import io.sluice.dispatch.control.ControlMessage.CoordinatorHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Evicted;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.ControlMessage.Reject;
import io.sluice.dispatch.control.ControlMessage.Shutdown;
import io.sluice.dispatch.control.MemberState;
import io.sluice.dispatch.control.StreamAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The CNs a coordinator counts, in the order they joined: who registers (a name already alive is
 * refused, a name or endpoint of a silent or dead member replaced), who is heard from, who falls
 * silent and leaves, and the epoch that counts every change. A member that leaves, however it
 * leaves, is reported to {@code onRemoved} (the coordinator fails the queries it was in). Used by the
 * coordinator's control loop only; {@link #snapshot} is for any thread.
 */
final class Membership {
    private final ClusterContext context;
    private final long coordinatorIncarnation;
    private final StreamAddress results;
    private final BiFunction<StreamAddress, Long, Peer> peers;
    private final OneOffReplies refusals;
    private final BiConsumer<Member, String> onRemoved;
    private final Consumer<String> log;
    private final Map<Long, Member> members = new LinkedHashMap<>();
    /** "name pid" of the CNs the coordinator's own process starts; any thread adds. */
    private final Set<String> launching = ConcurrentHashMap.newKeySet();
    /** Whether each CN server of this process still runs, by its incarnation; any thread adds. */
    private final Map<Long, BooleanSupplier> inProcess = new ConcurrentHashMap<>();
    private long epoch;
    private long nextMemberId = 1;
    private volatile List<MemberStatus> snapshot = List.of();

    /**
     * @param results  where accepted CNs send result rows
     * @param peers    makes the peer a member's control messages go to, addressed to its incarnation
     * @param refusals where refusals of CNs that do not become members go
     */
    Membership(final ClusterContext context, final long coordinatorIncarnation, final StreamAddress results,
            final BiFunction<StreamAddress, Long, Peer> peers, final OneOffReplies refusals,
            final BiConsumer<Member, String> onRemoved, final Consumer<String> log) {
        this.context = context;
        this.coordinatorIncarnation = coordinatorIncarnation;
        this.results = results;
        this.peers = peers;
        this.refusals = refusals;
        this.onRemoved = onRemoved;
        this.log = log;
    }

    /**
     * Records that the coordinator's own process starts the CN of this name and process id ({@code sluice
     * cluster up}): status marks it as launched, and a CN that joins without being announced so is named
     * in the log as started apart. Any thread, before the CN registers.
     */
    void launching(final String name, final long pid) {
        launching.add(name + " " + pid);
    }

    /**
     * Records that the CN server of this incarnation runs in the coordinator's own process (an embedded
     * cluster), and how to tell whether it still runs: its silence never makes it dead (see {@link Member#state}).
     * Any thread, before that CN registers.
     */
    void inProcess(final long incarnation, final BooleanSupplier runs) {
        inProcess.put(incarnation, runs);
    }

    /** Takes a CN in, answers it again if it asked before, or refuses it, saying why. */
    void register(final Register r, final long now) {
        if (r.cores() < 1 || r.name().isBlank()) {
            refuse(r, "a CN needs a name and at least one core, got name '" + r.name() + "' and " + r.cores() + " cores");
            return;
        }
        for (final Member m : new ArrayList<>(members.values())) {
            if (m.name.equals(r.name())) {
                if (m.incarnation == r.incarnation() && m.control.equals(r.replyTo())) {
                    // The same CN asked again before our answer reached it.
                    m.peer.send(accept(m));
                    return;
                }
                if (m.state(now, context) == MemberState.ALIVE) {
                    refuse(r, "a CN of that name is already a member (pid " + m.pid + " at " + m.endpoint()
                            + "): give each CN its own --name");
                    log.accept("coordinator: refused a second CN named " + r.name() + " (pid " + r.pid() + ")");
                    return;
                }
                remove(m, m.describe() + " was replaced by a new CN of the same name");
            } else if (m.control.equals(r.replyTo())) {
                remove(m, m.describe() + " was replaced by CN " + r.name() + " at the same endpoint");
            }
        }
        final boolean launched = launching.contains(r.name() + " " + r.pid());
        final Peer peer = peers.apply(r.replyTo(), r.incarnation());
        peer.doorbell(r.replyTo().host(), r.doorbell());
        final BooleanSupplier runs = r.pid() == ProcessHandle.current().pid() ? inProcess.get(r.incarnation()) : null;
        final Member member = new Member(nextMemberId++, r, launched, peer, now, runs);
        members.put(member.memberId, member);
        epoch++;
        member.peer.send(accept(member));
        publish(now);
        log.accept("coordinator: cn " + member.name + " joined from " + member.endpoint() + " with " + member.cores
                + (member.cores == 1 ? " core: " : " cores: ") + countText() + (launched || launching.isEmpty() ? ""
                : "; it was started apart from this process (pid " + r.pid() + "), which does not stop it"));
    }

    private void refuse(final Register r, final String why) {
        refusals.send(r.replyTo(), new Reject(why), System.nanoTime());
    }

    private Accept accept(final Member m) {
        int position = 0;
        for (final Member other : members.values()) {
            if (other == m) {
                break;
            }
            position++;
        }
        return new Accept(m.memberId, epoch, position, members.size(), coordinatorIncarnation, results);
    }

    /** A heartbeat from a member (of this incarnation; any other is not a member any more). */
    void heartbeat(final CnHeartbeat h, final long now) {
        final Member m = members.get(h.memberId());
        if (m != null && m.incarnation == h.incarnation()) {
            m.heard(now);
            m.activeQueries = h.activeQueries();
            m.rssBytes = h.rssBytes();
            m.rejectedMessages = h.rejectedMessages();
            m.retransmits = h.retransmits();
        }
    }

    /** A member spoke (any message is a sign of life); null when it is not a member. */
    Member heard(final long memberId, final long now) {
        final Member m = members.get(memberId);
        if (m != null) {
            m.heard(now);
        }
        return m;
    }

    /** A member that said it stops. */
    void leave(final long memberId, final long incarnation) {
        final Member m = members.get(memberId);
        if (m != null && m.incarnation == incarnation) {
            remove(m, m.describe() + " stopped");
        }
    }

    /**
     * Sends every member a heartbeat and removes the dead: those silent for their dead timeout, and
     * suspect ones whose process is gone (their doorbell's port is closed); returns how many left.
     */
    int heartbeatRound(final long now) {
        final Map<Member, String> dead = new LinkedHashMap<>();
        final Map<Member, String> silent = new LinkedHashMap<>();
        for (final Member m : members.values()) {
            final MemberState state = m.state(now, context);
            final long silentMs = TimeUnit.NANOSECONDS.toMillis(now - m.lastHeardNs);
            if (state == MemberState.DEAD && m.inProcess()) {
                dead.put(m, m.describe() + " stopped: its server in this process was closed");
            } else if (state == MemberState.DEAD) {
                final String why = m.describe() + " died or stalled: no heartbeat for " + silentMs + " ms (its dead"
                        + " timeout, " + TimeUnit.NANOSECONDS.toMillis(m.deadTimeoutNs(context)) + " ms, is the larger"
                        + " of " + ClusterContext.DEAD_TIMEOUT_PROP_NAME + " and 4 times its longest recent heartbeat"
                        + " gap, at most " + ClusterContext.DEAD_TIMEOUT_MAX_PROP_NAME + ")";
                dead.put(m, why);
                silent.put(m, why);
            } else if (state == MemberState.SUSPECT && m.processGone()) {
                dead.put(m, m.describe() + " died or stalled: its process is gone (its host says its port "
                        + m.host() + ":" + m.doorbell + " is closed), no heartbeat for " + silentMs + " ms");
            } else {
                m.peer.send(new CoordinatorHeartbeat(coordinatorIncarnation, epoch, members.size()));
            }
        }
        for (final Map.Entry<Member, String> s : silent.entrySet()) {
            // Silence is not proof of death (a CN starved by its own workers): one that still runs hears this and
            // registers again at once instead of after its own dead timeout.
            s.getKey().peer.send(new Evicted(coordinatorIncarnation, s.getValue()));
        }
        for (final Map.Entry<Member, String> d : dead.entrySet()) {
            remove(d.getKey(), d.getValue());
        }
        publish(now);
        return dead.size();
    }

    /** The control loop did not run for {@code pausedNs}: no member's silence counts that time. */
    void excuse(final long pausedNs) {
        for (final Member m : members.values()) {
            m.excuse(pausedNs);
        }
    }

    /** Takes a CN out; {@code onRemoved} hears why. */
    private void remove(final Member m, final String why) {
        if (members.remove(m.memberId) == null) {
            return;
        }
        if (m.inProcess()) {
            inProcess.remove(m.incarnation);
        }
        epoch++;
        publish(System.nanoTime());
        log.accept("coordinator: " + why + ": " + countText() + " left");
        onRemoved.accept(m, why);
        m.peer.drain();
        m.close();
    }

    /**
     * The members a new query may run on, in join order. Suspect CNs are still members: a CN slow to
     * answer for a moment (a pause, a busy machine) keeps its place; only a dead one leaves.
     */
    List<Member> usable(final long now) {
        final List<Member> usable = new ArrayList<>();
        for (final Member m : members.values()) {
            if (m.state(now, context) != MemberState.DEAD) {
                usable.add(m);
            }
        }
        return usable;
    }

    /** Whether a member is still in the membership. */
    boolean contains(final Member m) {
        return members.get(m.memberId) == m;
    }

    /** Every member as {@code cluster status} shows it, now. */
    List<MemberStatus> status(final long now) {
        final List<MemberStatus> status = new ArrayList<>();
        for (final Member m : members.values()) {
            status.add(m.status(now, context));
        }
        return status;
    }

    private void publish(final long now) {
        snapshot = List.copyOf(status(now));
    }

    /** The members as of the last change or heartbeat round; any thread. */
    List<MemberStatus> snapshot() {
        return snapshot;
    }

    long epoch() {
        return epoch;
    }

    /** Sends what waits for each member; returns the messages sent. */
    int drain() {
        int sent = 0;
        for (final Member m : members.values()) {
            sent += m.peer.drain();
        }
        return sent;
    }

    /** Tells every member the coordinator stops, waits up to a second for that to go out, and closes their peers. */
    void shutdown(final String why) {
        for (final Member m : members.values()) {
            m.peer.send(new Shutdown(coordinatorIncarnation, why));
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        boolean waiting = true;
        while (waiting && System.nanoTime() - deadline < 0) {
            waiting = false;
            for (final Member m : members.values()) {
                m.peer.drain();
                waiting |= m.peer.waiting() > 0;
            }
            Thread.onSpinWait();
        }
        for (final Member m : members.values()) {
            m.close();
        }
        members.clear();
        snapshot = List.of();
    }

    private String countText() {
        return members.size() + " CN" + (members.size() == 1 ? "" : "s");
    }
}
