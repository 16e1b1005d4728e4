package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class MessageAuthenticatorTest {
    private static final byte[] KEY = ClusterSecret.of("a secret of more than sixteen bytes".getBytes(
            StandardCharsets.UTF_8)).key("test");

    @Test
    void theTagIsTheStandardHmacSha256OfEverythingButItsPlaceTruncatedToSixteenBytes() throws Exception {
        final byte[] message = "0123456789abcdef<tag goes here!>xyz".getBytes(StandardCharsets.US_ASCII);
        final UnsafeBuffer buffer = new UnsafeBuffer(message.clone());
        new MessageAuthenticator(KEY).sign(buffer, 0, message.length, 16);

        final Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        mac.update(message, 0, 16);
        mac.update(message, 32, message.length - 32);
        final byte[] expected = java.util.Arrays.copyOf(mac.doFinal(), 16);
        final byte[] tag = new byte[16];
        buffer.getBytes(16, tag);
        assertThat(tag).containsExactly(expected);
    }

    @Property(tries = 200)
    void anyChangedByteOrOtherKeyIsRefusedOnAndOffTheHeap(@ForAll @IntRange(min = 17, max = 5000) final int length,
            @ForAll final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) random.nextInt();
        }
        final int tagAt = random.nextInt(length - 15);
        final UnsafeBuffer heap = new UnsafeBuffer(bytes);
        final MessageAuthenticator authenticator = new MessageAuthenticator(KEY);
        authenticator.sign(heap, 0, length, tagAt);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(length + 7));
        direct.putBytes(7, heap, 0, length);
        assertThat(authenticator.verify(heap, 0, length, tagAt)).isTrue();
        assertThat(authenticator.verify(direct, 7, length, 7 + tagAt)).isTrue();

        final int flip = random.nextInt(length);
        direct.putByte(7 + flip, (byte) (direct.getByte(7 + flip) ^ (1 << random.nextInt(8))));
        assertThat(authenticator.verify(direct, 7, length, 7 + tagAt)).isFalse();
        assertThat(new MessageAuthenticator(ClusterSecret.of(new byte[32]).key("test")).verify(heap, 0, length, tagAt))
                .isFalse();
    }

    @Property(tries = 100)
    void aTagOverTwoPartsEqualsTheTagOverThemLaidEndToEnd(@ForAll @IntRange(min = 16, max = 200) final int head,
            @ForAll @IntRange(min = 0, max = 40_000) final int tail, @ForAll final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer first = new UnsafeBuffer(new byte[head]);
        final UnsafeBuffer second = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(1, tail)));
        for (int i = 0; i < head; i++) {
            first.putByte(i, (byte) random.nextInt());
        }
        for (int i = 0; i < tail; i++) {
            second.putByte(i, (byte) random.nextInt());
        }
        final int tagAt = random.nextInt(head - 15);
        final MessageAuthenticator authenticator = new MessageAuthenticator(KEY);
        authenticator.sign(first, 0, head, tagAt, second, 0, tail);
        final UnsafeBuffer whole = new UnsafeBuffer(new byte[head + tail]);
        whole.putBytes(0, first, 0, head);
        whole.putBytes(head, second, 0, tail);
        assertThat(authenticator.verify(whole, 0, head + tail, tagAt)).isTrue();
    }
}
