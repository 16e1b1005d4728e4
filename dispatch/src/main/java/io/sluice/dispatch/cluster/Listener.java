package io.sluice.dispatch.cluster;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.sluice.dispatch.control.StreamAddress;
import io.sluice.transport.Endpoint;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.CloseHelper;

/**
 * The subscriptions of one cluster process, one per stream, all on one channel: one UDP port (a
 * process on another host sends every kind of message there, each kind on its stream) or
 * {@code aeron:ipc} inside a process. A UDP port of 0 takes a free port, resolved once bound, and the
 * addresses it gives others carry the port it got. Aeron binds a port once per channel, so the
 * second and later streams share the first's through a channel tag.
 */
final class Listener implements AutoCloseable {
    /** How long a subscription may take to bind its port. */
    private static final long BIND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Subscription[] subscriptions;
    private final StreamAddress[] addresses;
    private final String description;

    private Listener(final Subscription[] subscriptions, final StreamAddress[] addresses, final String description) {
        this.subscriptions = subscriptions;
        this.addresses = addresses;
        this.description = description;
    }

    /** Subscribes to {@code streams} on UDP {@code endpoint}; the error names the endpoint. */
    static Listener udp(final Aeron aeron, final Endpoint endpoint, final int... streams) {
        final Subscription[] subscriptions = new Subscription[streams.length];
        try {
            final long tag = ThreadLocalRandom.current().nextLong(1, Integer.MAX_VALUE);
            subscriptions[0] = aeron.addSubscription(endpoint.channel() + "|tags=" + tag, streams[0]);
            final Endpoint bound = endpoint.withPort(awaitPort(subscriptions[0], endpoint));
            for (int i = 1; i < streams.length; i++) {
                subscriptions[i] = aeron.addSubscription("aeron:udp?tags=" + tag, streams[i]);
            }
            final StreamAddress[] addresses = new StreamAddress[streams.length];
            for (int i = 0; i < streams.length; i++) {
                addresses[i] = new StreamAddress(bound.channel(), streams[i]);
            }
            return new Listener(subscriptions, addresses, bound.toString());
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(subscriptions);
            throw new IllegalArgumentException("cannot listen on UDP " + endpoint + ": " + e.getMessage()
                    + " (is the port in use, or the address not this machine's?)", e);
        }
    }

    /** Subscribes to {@code streams} on {@code aeron:ipc}, for processes sharing this one's media driver. */
    static Listener ipc(final Aeron aeron, final int... streams) {
        final Subscription[] subscriptions = new Subscription[streams.length];
        final StreamAddress[] addresses = new StreamAddress[streams.length];
        try {
            for (int i = 0; i < streams.length; i++) {
                subscriptions[i] = aeron.addSubscription("aeron:ipc", streams[i]);
                addresses[i] = new StreamAddress("aeron:ipc", streams[i]);
            }
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(subscriptions);
            throw e;
        }
        return new Listener(subscriptions, addresses, "aeron:ipc stream " + streams[0]);
    }

    private static int awaitPort(final Subscription subscription, final Endpoint endpoint) {
        final long deadline = System.nanoTime() + BIND_TIMEOUT_NS;
        String resolved;
        while ((resolved = subscription.resolvedEndpoint()) == null) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the media driver did not bind " + endpoint + " within "
                        + TimeUnit.NANOSECONDS.toSeconds(BIND_TIMEOUT_NS) + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return Integer.parseInt(resolved.substring(resolved.lastIndexOf(':') + 1));
    }

    /** The subscription of the {@code i}-th stream, which the caller then owns. */
    Subscription subscription(final int i) {
        return subscriptions[i];
    }

    /** Where others send to the {@code i}-th stream. */
    StreamAddress address(final int i) {
        return addresses[i];
    }

    /** HOST:PORT for UDP, the channel and first stream for IPC: what a log line names. */
    String describe() {
        return description;
    }

    /** Closes every subscription (for a listener whose owner failed before taking them). */
    @Override
    public void close() {
        CloseHelper.closeAll(subscriptions);
    }
}
