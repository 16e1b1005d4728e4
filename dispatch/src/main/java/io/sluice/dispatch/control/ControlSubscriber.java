package io.sluice.dispatch.control;

import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.sluice.engine.wire.WireFormatException;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

/**
 * Receives control messages on one Aeron subscription, reassembling fragmented ones, and hands each
 * decoded message to a {@link Handler}. A message that does not decode is counted and reported to
 * the handler, never thrown: garbage on a control port stops nothing. Polled like an Agrona agent's
 * {@code doWork}; single-threaded.
 */
public final class ControlSubscriber implements AutoCloseable {
    /** What a control loop does with what arrives. */
    public interface Handler {
        /** A decoded message. */
        void onMessage(ControlMessage message);

        /** A message that is not a valid control message of this version; {@code fault} says why. */
        default void onBadMessage(final WireFormatException fault) {
        }

        /** A message of another protocol version. */
        default void onVersionMismatch(final ControlVersionException mismatch) {
        }
    }

    private final Subscription subscription;
    private final FragmentAssembler assembler = new FragmentAssembler(this::onFragment);
    private final ControlCodec codec = new ControlCodec();
    private Handler handler;
    private long messages;
    private long badMessages;

    /** A subscriber over an open subscription, which it then owns and closes. */
    public ControlSubscriber(final Subscription subscription) {
        this.subscription = subscription;
    }

    /** Reads up to {@code fragmentLimit} fragments, handing every complete message to {@code handler}. */
    public int poll(final Handler handler, final int fragmentLimit) {
        this.handler = handler;
        try {
            return subscription.poll(assembler, fragmentLimit);
        } finally {
            this.handler = null;
        }
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
        final ControlMessage message;
        try {
            message = codec.decode(buffer, offset, length);
        } catch (final WireFormatException e) {
            badMessages++;
            handler.onBadMessage(e);
            return;
        } catch (final ControlVersionException e) {
            badMessages++;
            handler.onVersionMismatch(e);
            return;
        }
        messages++;
        handler.onMessage(message);
    }

    /** Messages decoded so far. */
    public long messages() {
        return messages;
    }

    /** Messages that did not decode, or came in another protocol version. */
    public long badMessages() {
        return badMessages;
    }

    /** The resolved endpoint of a UDP subscription (its port when asked for port 0), or null until bound. */
    public String resolvedEndpoint() {
        return subscription.resolvedEndpoint();
    }

    public String channel() {
        return subscription.channel();
    }

    public int streamId() {
        return subscription.streamId();
    }

    @Override
    public void close() {
        CloseHelper.close(subscription);
    }
}
