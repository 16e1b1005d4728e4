package io.sluice.perf.mysql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The {@code mysql_native_password} method: the server keeps SHA1(SHA1(password)) and sends a random
 * 20-byte scramble; the client answers SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password))), which
 * proves it knows the password without sending it. An empty password is an empty answer.
 */
final class NativePassword {
    /** The method's name in the handshake. */
    static final String PLUGIN = "mysql_native_password";
    static final int SCRAMBLE_LENGTH = 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private NativePassword() {
    }

    /** A fresh scramble: 20 printable bytes, none of them NUL (clients read it as a NUL-terminated string). */
    static byte[] scramble() {
        final byte[] s = new byte[SCRAMBLE_LENGTH];
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) (33 + RANDOM.nextInt(94));
        }
        return s;
    }

    /** What the server keeps of a password: SHA1(SHA1(password)). */
    static byte[] stored(final String password) {
        return sha1(sha1(password.getBytes(StandardCharsets.UTF_8)));
    }

    /** The stored form written as MySQL prints it: {@code *} and 40 upper-case hex digits. */
    static String storedText(final byte[] stored) {
        return "*" + HexFormat.of().withUpperCase().formatHex(stored);
    }

    /** What a client sends for {@code password} and {@code scramble}: empty for an empty password. */
    static byte[] answer(final String password, final byte[] scramble) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        final byte[] stage1 = sha1(password.getBytes(StandardCharsets.UTF_8));
        final byte[] mask = sha1(concat(scramble, sha1(stage1)));
        for (int i = 0; i < stage1.length; i++) {
            stage1[i] ^= mask[i];
        }
        return stage1;
    }

    /**
     * Whether a client's answer proves the password whose stored form is {@code stored}; {@code stored}
     * null stands for the empty password, which only an empty answer proves.
     */
    static boolean verify(final byte[] answer, final byte[] scramble, final byte[] stored) {
        if (stored == null) {
            return answer.length == 0;
        }
        if (answer.length != SCRAMBLE_LENGTH) {
            return false;
        }
        final byte[] mask = sha1(concat(scramble, stored));
        final byte[] stage1 = new byte[SCRAMBLE_LENGTH];
        for (int i = 0; i < stage1.length; i++) {
            stage1[i] = (byte) (answer[i] ^ mask[i]);
        }
        return MessageDigest.isEqual(sha1(stage1), stored);
    }

    private static byte[] concat(final byte[] a, final byte[] b) {
        final byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] sha1(final byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(in);
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-1, which mysql_native_password needs", e);
        }
    }
}
