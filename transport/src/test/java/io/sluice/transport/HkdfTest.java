package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** HKDF-SHA256 gives the outputs of RFC 5869's test vectors. */
class HkdfTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void rfc5869TestCase1() {
        final byte[] prk = Hkdf.extract(HEX.parseHex("000102030405060708090a0b0c"),
                HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"));
        assertThat(HEX.formatHex(prk)).isEqualTo("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
        assertThat(HEX.formatHex(new Hkdf(prk).expand(HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42)))
                .isEqualTo("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    }

    @Test
    void rfc5869TestCase3WithoutSaltOrInfo() {
        final byte[] prk = Hkdf.extract(new byte[0], HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"));
        assertThat(HEX.formatHex(prk)).isEqualTo("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04");
        assertThat(HEX.formatHex(new Hkdf(prk).expand(new byte[0], 42)))
                .isEqualTo("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
    }

    @Test
    void oneInstanceExpandsManyKeysEachAsIfAlone() {
        final byte[] prk = Hkdf.extract(new byte[] {1}, new byte[] {2, 3});
        final Hkdf reused = new Hkdf(prk);
        final byte[] first = reused.expand(new byte[] {9}, 32);
        reused.expand(new byte[] {8}, 70);
        assertThat(reused.expand(new byte[] {9}, 32)).containsExactly(first);
        assertThat(new Hkdf(prk).expand(new byte[] {9}, 32)).containsExactly(first);
    }
}
