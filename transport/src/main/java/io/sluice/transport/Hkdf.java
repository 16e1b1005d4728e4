package io.sluice.transport;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 (RFC 5869): {@link #extract} condenses input key material into a
 * pseudorandom key once, {@link #expand} derives from it as many independent keys as there are
 * distinct {@code info} strings. One instance holds one extracted key; single-threaded.
 */
final class Hkdf {
    static final String ALGORITHM = "HmacSHA256";
    private static final int HASH_LENGTH = 32;

    private final Mac mac;
    private final byte[] block = new byte[HASH_LENGTH];

    /** Expansion under the pseudorandom key {@code prk} (the output of {@link #extract}). */
    Hkdf(final byte[] prk) {
        try {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(prk, ALGORITHM));
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + ALGORITHM + ": " + e, e);
        }
    }

    /** HKDF-Extract: HMAC-SHA256 of the input key material under the salt. */
    static byte[] extract(final byte[] salt, final byte[] inputKeyMaterial) {
        try {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(salt.length == 0 ? new byte[HASH_LENGTH] : salt, ALGORITHM));
            return mac.doFinal(inputKeyMaterial);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + ALGORITHM + ": " + e, e);
        }
    }

    /** HKDF-Expand: {@code length} bytes (at most 255 hashes) for {@code info}. */
    byte[] expand(final byte[] info, final int length) {
        if (length <= 0 || length > 255 * HASH_LENGTH) {
            throw new IllegalArgumentException("HKDF-SHA256 derives 1 to " + 255 * HASH_LENGTH + " bytes, not " + length);
        }
        final byte[] out = new byte[length];
        int done = 0;
        for (int counter = 1; done < length; counter++) {
            if (counter > 1) {
                mac.update(block, 0, HASH_LENGTH);
            }
            mac.update(info);
            mac.update((byte) counter);
            try {
                mac.doFinal(block, 0);
            } catch (final ShortBufferException e) {
                throw new IllegalStateException(e);
            }
            final int n = Math.min(HASH_LENGTH, length - done);
            System.arraycopy(block, 0, out, done, n);
            done += n;
        }
        return out;
    }
}
