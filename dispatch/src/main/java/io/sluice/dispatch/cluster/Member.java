package io.sluice.dispatch.cluster;

import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.MemberState;
import io.sluice.dispatch.control.StreamAddress;
import java.util.concurrent.TimeUnit;

/**
 * One CN in the coordinator's membership: what it registered with, the peer its control messages go
 * to, and when the coordinator last heard from it. Used by the coordinator's control loop only.
 */
final class Member {
    final long memberId;
    final String name;
    final int cores;
    final StreamAddress control;
    final StreamAddress data;
    final long pid;
    final long incarnation;
    /** Whether the coordinator's own process started it (see {@link Membership#launching}). */
    final boolean launched;
    final Peer peer;
    long lastHeardNs;
    int activeQueries;
    long rssBytes;
    long rejectedMessages;
    long retransmits;

    Member(final long memberId, final Register register, final boolean launched, final Peer peer, final long nowNs) {
        this.memberId = memberId;
        this.name = register.name();
        this.cores = register.cores();
        this.control = register.replyTo();
        this.data = register.data();
        this.pid = register.pid();
        this.incarnation = register.incarnation();
        this.launched = launched;
        this.peer = peer;
        this.lastHeardNs = nowNs;
    }

    MemberState state(final long nowNs, final ClusterContext context) {
        final long silence = nowNs - lastHeardNs;
        return silence > context.deadTimeoutNs() ? MemberState.DEAD
                : silence > context.suspectTimeoutNs() ? MemberState.SUSPECT : MemberState.ALIVE;
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

    /** "CN name (pid p at endpoint)", for messages. */
    String describe() {
        return "CN " + name + " (pid " + pid + " at " + endpoint() + ")";
    }
}
