package io.sluice.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** A reader reads back what a writer wrote and refuses, with the field named, every read the bytes cannot back. */
class WireReaderTest {
    private static WireReader reader(final byte[] bytes) {
        return new WireReader(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private static WireReader reader(final WireWriter writer) {
        return reader(writer.toByteArray());
    }

    /** Well-formed UTF-16: any character outside the surrogates, plus surrogate pairs (characters beyond U+FFFF). */
    @Provide
    Arbitrary<String> text() {
        final Arbitrary<String> bmp = Arbitraries.strings().withCharRange('\u0000', '\uD7FF')
                .withCharRange('\uE000', '\uFFFF').ofMaxLength(40);
        final Arbitrary<String> supplementary = Arbitraries.integers().between(0x10000, Character.MAX_CODE_POINT)
                .map(Character::toString);
        return Combinators.combine(bmp, supplementary, bmp).as((a, b, c) -> a + b + c);
    }

    @Property(tries = 200)
    void whatIsWrittenIsReadBack(@ForAll final byte b, @ForAll final short s, @ForAll final int i, @ForAll final long l,
                                 @ForAll final boolean flag, @ForAll("text") final String text,
                                 @ForAll final byte[] bytes) {
        final WireWriter w = new WireWriter(1);
        w.writeByte(b).writeShort(s).writeInt(i).writeLong(l).writeBoolean(flag).writeString(text).writeBytes(bytes);
        final WireReader r = reader(w);
        assertThat(r.readByte("b")).isEqualTo(b);
        assertThat(r.readShort("s")).isEqualTo(s);
        assertThat(r.readInt("i")).isEqualTo(i);
        assertThat(r.readLong("l")).isEqualTo(l);
        assertThat(r.readBoolean("flag")).isEqualTo(flag);
        assertThat(r.readString("text")).isEqualTo(text);
        assertThat(r.readBytes("bytes")).isEqualTo(bytes);
        assertThat(r.remaining()).isZero();
        assertThat(r.position()).isEqualTo(w.length());
        r.expectEnd("end");
    }

    @Test
    void valuesAreLittleEndian() {
        final byte[] bytes = new WireWriter().writeShort((short) 0x0102).writeInt(0x03040506)
                .writeLong(0x0708090A0B0C0D0EL).toByteArray();
        assertThat(bytes).containsExactly(0x02, 0x01, 0x06, 0x05, 0x04, 0x03,
                0x0E, 0x0D, 0x0C, 0x0B, 0x0A, 0x09, 0x08, 0x07);
    }

    @Test
    void stringsAreAnIntLengthAndUtf8Bytes() {
        final byte[] bytes = new WireWriter().writeString("é").toByteArray();
        assertThat(bytes).containsExactly(2, 0, 0, 0, 0xC3, 0xA9);
    }

    @Test
    void aResetWriterStartsAgainAndGrowsPastItsInitialCapacity() {
        final WireWriter w = new WireWriter(2);
        w.writeLong(1).writeLong(2);
        assertThat(w.length()).isEqualTo(16);
        w.reset().writeInt(7);
        assertThat(w.length()).isEqualTo(4);
        assertThat(w.toByteArray()).containsExactly(7, 0, 0, 0);
        assertThat(w.buffer().getInt(0)).isEqualTo(7);
    }

    @Test
    void eachReadPastTheEndFailsNamingTheFieldAndOffset() {
        final byte[] three = {1, 2, 3};
        assertTruncated(r -> r.readInt("header.count"), three, "header.count at byte 0 of 3");
        assertTruncated(r -> r.readLong("x"), new byte[7], "a long needs 8 bytes, 7 left");
        assertTruncated(r -> r.readShort("x"), new byte[1], "a short needs 2 bytes, 1 left");
        assertTruncated(r -> r.readByte("x"), new byte[0], "a byte needs 1 bytes, 0 left");
        assertTruncated(r -> r.readBoolean("x"), new byte[0], "truncated");
        assertTruncated(r -> {
            r.readShort("first");
            r.readShort("second");
        }, three, "second at byte 2 of 3");
    }

    private static void assertTruncated(final Consumer<WireReader> read, final byte[] bytes, final String message) {
        assertThatThrownBy(() -> read.accept(reader(bytes)))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aStringOrArrayLongerThanTheBytesLeftFailsBeforeAllocating() {
        final byte[] bytes = new WireWriter().writeInt(Integer.MAX_VALUE).writeInt(0).toByteArray();
        assertThatThrownBy(() -> reader(bytes).readString("name"))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("name at byte 0 of 8: length 2147483647 exceeds the 4 bytes left");
        assertThatThrownBy(() -> reader(bytes).readBytes("data"))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("exceeds the 4 bytes left");
    }

    @Test
    void aNegativeLengthOrCountFails() {
        final byte[] bytes = new WireWriter().writeInt(-1).toByteArray();
        assertThatThrownBy(() -> reader(bytes).readString("s")).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("negative length -1");
        assertThatThrownBy(() -> reader(bytes).readBytes("b")).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("negative length -1");
        assertThatThrownBy(() -> reader(bytes).readCount("items", 1)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("negative count -1");
    }

    @Test
    void aCountFailsWhenItsItemsCannotFitTheBytesLeft() {
        final byte[] bytes = new WireWriter().writeInt(3).writeLong(1).writeLong(2).toByteArray();
        assertThat(reader(bytes).readCount("keys", 4)).isEqualTo(3);
        assertThat(reader(bytes).readCount("keys", 5)).isEqualTo(3);
        assertThatThrownBy(() -> reader(bytes).readCount("keys", 8))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("keys at byte 0 of 20: count 3 of items of at least 8 bytes exceeds the 16 bytes left");
        final byte[] huge = new WireWriter().writeInt(Integer.MAX_VALUE).writeLong(0).toByteArray();
        assertThatThrownBy(() -> reader(huge).readCount("keys", 1)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("count 2147483647 of items of at least 1 bytes exceeds the 8 bytes left");
    }

    @Test
    void theConfiguredMaximumCapsLengthsAndCountsThatWouldFit() {
        final byte[] bytes = new WireWriter().writeString("abcdef").toByteArray();
        final WireReader strict = new WireReader(new UnsafeBuffer(bytes), 0, bytes.length, 5);
        assertThatThrownBy(() -> strict.readString("name"))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("name at byte 0 of 10: length 6 exceeds the maximum of 5 bytes");
        final WireReader counts = new WireReader(new UnsafeBuffer(bytes), 0, bytes.length, 5);
        assertThatThrownBy(() -> counts.readCount("items", 1))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("count 6 exceeds the maximum of 5 items");
        assertThat(new WireReader(new UnsafeBuffer(bytes), 0, bytes.length, 6).readString("name")).isEqualTo("abcdef");
    }

    @Test
    void aBooleanIsZeroOrOne() {
        assertThatThrownBy(() -> reader(new byte[] {2}).readBoolean("flag"))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("flag at byte 0 of 1: a boolean must be 0 or 1, found 2");
    }

    @Test
    void malformedUtf8IsAnErrorNotAReplacementCharacter() {
        final byte[] bytes = new WireWriter().writeBytes(new byte[] {(byte) 0xC3}).toByteArray();
        assertThatThrownBy(() -> reader(bytes).readString("literal"))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("literal at byte 0 of 5: the 1 string bytes are not well-formed UTF-8");
    }

    @Test
    void theWriterRefusesAStringWithoutAUtf8Encoding() {
        assertThatThrownBy(() -> new WireWriter().writeString("a\uD800b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate");
        assertThatThrownBy(() -> new WireWriter().writeString(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("presence flag");
    }

    @Test
    void expectEndFailsWhenBytesAreLeftOver() {
        final WireReader r = reader(new byte[] {1, 2, 3});
        r.readByte("a");
        assertThatThrownBy(() -> r.expectEnd("message"))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("message at byte 1 of 3: 2 bytes left over after the end of the message");
        r.readShort("b");
        r.expectEnd("message");
    }

    @Test
    void aReaderStaysInsideItsRangeOfALargerBuffer() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        buffer.putInt(4, 42);
        buffer.putInt(8, 43);
        final WireReader r = new WireReader(buffer, 4, 4);
        assertThat(r.readInt("first")).isEqualTo(42);
        assertThatThrownBy(() -> r.readInt("second")).isInstanceOf(WireFormatException.class);
        r.wrap(buffer, 8, 4);
        assertThat(r.position()).isZero();
        assertThat(r.readInt("first")).isEqualTo(43);
    }

    @Test
    void aRangeOutsideTheBufferIsTheCallersMistake() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        assertThatThrownBy(() -> new WireReader(buffer, 4, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not lie inside a buffer of 8 bytes");
        assertThatThrownBy(() -> new WireReader(buffer, -1, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
