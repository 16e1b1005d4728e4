package io.sluice.dispatch.control;

import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.transport.MessageAuthenticator;
import io.sluice.transport.RejectionLog;
import io.sluice.transport.ReplayGuard;
import java.util.function.Consumer;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

/**
 * Receives control messages on one Aeron subscription, reassembling fragmented ones, and hands each
 * message it accepts, decoded, to a {@link Handler}. Before anything in a message is trusted it is
 * checked: with a cluster secret, its tag (made under the key of this stream) and that its sequence
 * number was not seen from its sender before ({@link ReplayGuard}); always, that it names this process
 * as its receiver (or no receiver, for a {@link ControlMessage.Hello}, and for a
 * {@link ControlMessage.Reject} from a process that could not tell who sent what it refuses) and that
 * it decodes. What
 * fails is dropped, counted ({@link #rejectedMessages}) and logged at a bounded rate per sender and
 * fault: garbage, replays or messages of strangers on a control port stop nothing. The handler hears
 * of the two kinds its owner may answer: a message of another version, and one without a valid tag
 * (decoded, when it decodes, so that a stranger can be told why it is refused). Polled like an Agrona
 * agent's {@code doWork}; single-threaded.
 */
public final class ControlSubscriber implements AutoCloseable {
    /** Sequence numbers remembered per sender. */
    private static final int WINDOW = 4096;
    private static final int MAX_SENDERS = 4096;

    /** What a control loop does with what arrives. */
    public interface Handler {
        /** A message accepted: decoded, addressed to this process and, with a secret, authentic and new. */
        void onMessage(ControlMessage message);

        /** A message of another protocol version (already counted and logged). */
        default void onVersionMismatch(final ControlVersionException mismatch) {
        }

        /**
         * A message whose tag does not match the cluster secret (already counted and logged): from a process
         * with another secret or none, or altered on the way.
         *
         * @param decoded the message as it decodes, or null when it does not
         */
        default void onUnauthenticated(final ControlMessage decoded, final String source) {
        }
    }

    private final Subscription subscription;
    private final FragmentAssembler assembler = new FragmentAssembler(this::onFragment);
    private final ControlCodec codec = new ControlCodec();
    private final ControlAuthentication authentication;
    private final MessageAuthenticator authenticator;
    private final ReplayGuard guard = new ReplayGuard(WINDOW, MAX_SENDERS);
    private final RejectionLog rejections;
    private Handler handler;
    private long messages;
    private long currentSender;

    /**
     * A subscriber over an open subscription, which it then owns and closes, accepting what
     * {@code authentication} allows and reporting what it drops to {@code log}.
     */
    public ControlSubscriber(final Subscription subscription, final ControlAuthentication authentication,
            final Consumer<String> log) {
        this.subscription = subscription;
        this.authentication = authentication;
        this.authenticator = authentication.authenticator(subscription.streamId());
        this.rejections = new RejectionLog("the control stream " + subscription.channel() + " stream "
                + subscription.streamId(), log);
    }

    /** Reads up to {@code fragmentLimit} fragments, handing every accepted message to {@code handler}. */
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
            rejections.reject(sourceOf(header), "does not decode", e.getMessage());
            return;
        } catch (final ControlVersionException e) {
            rejections.reject(sourceOf(header), "another version", e.getMessage());
            handler.onVersionMismatch(e);
            return;
        }
        if (authenticator != null) {
            if (!authenticator.verify(buffer, offset, length, offset + length - ControlCodec.TAG_FROM_END)) {
                final String source = sourceOf(header);
                rejections.reject(source, "tag does not match", describe(message) + " not signed with this cluster's"
                        + " secret (its sender has another secret, or none)");
                handler.onUnauthenticated(message, source);
                return;
            }
            final long sender = ControlCodec.senderIncarnation(buffer, offset, length);
            final long sequence = ControlCodec.sequence(buffer, offset, length);
            final ReplayGuard.Verdict verdict = guard.accept(sender, sequence);
            if (verdict != ReplayGuard.Verdict.NEW) {
                rejections.reject(sourceOf(header), "replay", describe(message) + " number " + sequence + " of sender "
                        + Long.toHexString(sender) + ": " + verdict.name().toLowerCase(java.util.Locale.ROOT));
                return;
            }
        }
        final long receiver = ControlCodec.receiverIncarnation(buffer, offset, length);
        if (receiver != authentication.incarnation() && !(receiver == 0 && (message instanceof ControlMessage.Hello
                || message instanceof ControlMessage.Reject))) {
            rejections.reject(sourceOf(header), "for another receiver", describe(message) + " for incarnation "
                    + Long.toHexString(receiver) + ", this is " + Long.toHexString(authentication.incarnation())
                    + " (meant for an earlier process at this address?)");
            return;
        }
        messages++;
        currentSender = ControlCodec.senderIncarnation(buffer, offset, length);
        handler.onMessage(message);
    }

    private static String describe(final ControlMessage message) {
        return "a " + message.getClass().getSimpleName();
    }

    private String sourceOf(final Header header) {
        final Image image = subscription.imageBySessionId(header.sessionId());
        return image == null ? "session " + header.sessionId() : image.sourceIdentity();
    }

    /** The incarnation of the sender of the message being handled, during {@link Handler#onMessage}. */
    public long currentSender() {
        return currentSender;
    }

    /** Messages accepted so far. */
    public long messages() {
        return messages;
    }

    /** Messages dropped: undecodable, of another version, unauthenticated, replayed or for another receiver. */
    public long rejectedMessages() {
        return rejections.total();
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
