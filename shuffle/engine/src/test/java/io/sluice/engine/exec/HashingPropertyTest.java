package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link Hashing#hashBytes} reads eight bytes at a time as one word; its hashes must be those of the definition
 * (each word the big-endian composition of its bytes, the tail likewise), whatever the offset and length, since
 * group and join keys hashed on different CNs and by different operators must agree.
 */
class HashingPropertyTest {
    @Property
    void wordsReadAtOnceHashAsTheirBytesComposedOneByOne(@ForAll @Size(max = 80) final byte[] bytes,
                                                         @ForAll @IntRange(max = 80) final int from,
                                                         @ForAll @IntRange(max = 80) final int length) {
        final int offset = Math.min(from, bytes.length);
        final int n = Math.min(length, bytes.length - offset);
        assertThat(Hashing.hashBytes(bytes, offset, n)).isEqualTo(byByte(bytes, offset, n));
    }

    /** The hash as defined: words composed from bytes one at a time, most significant first. */
    private static long byByte(final byte[] bytes, final int offset, final int length) {
        long h = length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = 0;
            for (int b = 0; b < 8; b++) {
                w = (w << 8) | (bytes[offset + i + b] & 0xFF);
            }
            h = h * 0x9E3779B97F4A7C15L + w;
        }
        long tail = 0;
        for (; i < length; i++) {
            tail = (tail << 8) | (bytes[offset + i] & 0xFF);
        }
        return Hashing.mix(h * 0x9E3779B97F4A7C15L + tail);
    }
}
