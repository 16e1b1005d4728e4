package io.sluice.engine.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Enum values travel as the codes of their table, whatever their declaration order. */
class EnumCodesTest {
    enum Colour { RED, GREEN, BLUE }

    @Test
    void theCodeIsThePositionInTheTableNotTheOrdinal() {
        final EnumCodes<Colour> codes = EnumCodes.of(Colour.class, Colour.BLUE, null, Colour.RED, Colour.GREEN);
        assertThat(codes.code(Colour.BLUE)).isZero();
        assertThat(codes.code(Colour.RED)).isEqualTo(2);
        final WireWriter w = new WireWriter();
        for (final Colour c : Colour.values()) {
            codes.write(w, c);
        }
        assertThat(w.toByteArray()).containsExactly(2, 3, 0);
        final byte[] bytes = w.toByteArray();
        final WireReader r = new WireReader(new UnsafeBuffer(bytes), 0, bytes.length);
        assertThat(codes.read(r, "c")).isEqualTo(Colour.RED);
        assertThat(codes.read(r, "c")).isEqualTo(Colour.GREEN);
        assertThat(codes.read(r, "c")).isEqualTo(Colour.BLUE);
    }

    @Test
    void anUnknownOrRetiredCodeFailsListingTheCodes() {
        final EnumCodes<Colour> codes = EnumCodes.of(Colour.class, Colour.BLUE, null, Colour.RED, Colour.GREEN);
        final byte[] bytes = {1, 4, (byte) 200};
        final WireReader r = new WireReader(new UnsafeBuffer(bytes), 0, bytes.length);
        assertThatThrownBy(() -> codes.read(r, "paint.colour"))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("paint.colour at byte 0 of 3: unknown Colour code 1: the codes are 0=BLUE, 2=RED, 3=GREEN");
        assertThatThrownBy(() -> codes.read(r, "c")).hasMessageContaining("unknown Colour code 4");
        assertThatThrownBy(() -> codes.read(r, "c")).hasMessageContaining("unknown Colour code 200");
    }

    @Test
    void aTableMustGiveEveryValueOneCode() {
        assertThatThrownBy(() -> EnumCodes.of(Colour.class, Colour.RED, Colour.GREEN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Colour.BLUE has no wire code");
        assertThatThrownBy(() -> EnumCodes.of(Colour.class, Colour.RED, Colour.GREEN, Colour.BLUE, Colour.RED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Colour.RED has two codes");
    }
}
