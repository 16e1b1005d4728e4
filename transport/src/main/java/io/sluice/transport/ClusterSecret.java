package io.sluice.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every process of a cluster shares: the coordinator, its CNs and its clients. It never
 * goes on the wire; each use derives its own keys from it: control messages carry HMAC-SHA256 tags
 * under a key per stream ({@link #key}, {@link MessageAuthenticator}), and data frames are sealed with
 * AES-GCM under a key per sender and receiver derived with HKDF-SHA256 ({@link FrameKeys}).
 *
 * <p>It is read from a file that only its owner (and group) may read: a file others can read or
 * write is refused, as is one shorter than {@link #MIN_BYTES} bytes. Trailing line breaks and spaces
 * are not part of the secret, so a file written with {@code echo} works like one written without.
 */
public final class ClusterSecret {
    /** The environment variable naming the secret file when no {@code --secret-file} is given. */
    public static final String FILE_ENV = "SLUICE_SECRET_FILE";
    /** The fewest bytes a secret may have. */
    public static final int MIN_BYTES = 16;
    /** How to make a good secret file, for messages. */
    public static final String HOW_TO_MAKE = "head -c 32 /dev/urandom | base64 > FILE && chmod 600 FILE";

    private final byte[] secret;
    private final String origin;

    private ClusterSecret(final byte[] secret, final String origin) {
        this.secret = secret;
        this.origin = origin;
    }

    /**
     * Reads a secret file.
     *
     * @throws IllegalArgumentException naming the file and the fix, when it is missing, readable or
     *                                  writable by others, or too short
     */
    public static ClusterSecret read(final Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("secret file " + file + " does not exist or is not a file: make one with "
                    + HOW_TO_MAKE.replace("FILE", file.toString()));
        }
        final PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (posix != null) {
            final Set<PosixFilePermission> permissions;
            try {
                permissions = posix.readAttributes().permissions();
            } catch (final IOException e) {
                throw new IllegalArgumentException("cannot read the permissions of secret file " + file + ": " + e, e);
            }
            if (permissions.contains(PosixFilePermission.OTHERS_READ)
                    || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new IllegalArgumentException("secret file " + file + " can be read or written by any user of this"
                        + " host: chmod 600 " + file);
            }
        }
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read secret file " + file + ": " + e.getMessage(), e);
        }
        int end = bytes.length;
        while (end > 0 && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r' || bytes[end - 1] == ' '
                || bytes[end - 1] == '\t')) {
            end--;
        }
        if (end < MIN_BYTES) {
            throw new IllegalArgumentException("secret file " + file + " holds " + end + " bytes, fewer than "
                    + MIN_BYTES + ": make a longer one with " + HOW_TO_MAKE.replace("FILE", file.toString()));
        }
        return new ClusterSecret(Arrays.copyOf(bytes, end), "secret file " + file);
    }

    /**
     * The secret of {@code file}, or, when it is null, of the file {@link #FILE_ENV} names; null when
     * neither is given (the cluster then runs without authentication, on loopback only).
     */
    public static ClusterSecret fromFileOrEnvironment(final Path file) {
        if (file != null) {
            return read(file);
        }
        final String fromEnvironment = System.getenv(FILE_ENV);
        return fromEnvironment == null || fromEnvironment.isBlank() ? null : read(Path.of(fromEnvironment));
    }

    /** A secret given as bytes (tests, embedders that keep it elsewhere); at least {@link #MIN_BYTES}. */
    public static ClusterSecret of(final byte[] secret) {
        if (secret.length < MIN_BYTES) {
            throw new IllegalArgumentException("a cluster secret needs at least " + MIN_BYTES + " bytes, got "
                    + secret.length);
        }
        return new ClusterSecret(secret.clone(), "a secret of " + secret.length + " bytes");
    }

    /**
     * The 32-byte key for one use ({@code "control"}, {@code "data"}): HMAC-SHA256 of the use's name
     * under the secret, so no two uses share a key and none reveals the secret.
     */
    public byte[] key(final String use) {
        try {
            final Mac mac = Mac.getInstance(MessageAuthenticator.ALGORITHM);
            mac.init(new SecretKeySpec(secret, MessageAuthenticator.ALGORITHM));
            return mac.doFinal(("sluice " + use + " key v1").getBytes(StandardCharsets.UTF_8));
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no " + MessageAuthenticator.ALGORITHM + ": " + e, e);
        }
    }

    /**
     * The HKDF-SHA256 pseudorandom key of one use ({@code "data frames"}), from which {@link Hkdf#expand}
     * derives that use's keys: the secret is the input key material, the use's name the salt.
     */
    Hkdf hkdf(final String use) {
        return new Hkdf(Hkdf.extract(("sluice " + use + " v1").getBytes(StandardCharsets.UTF_8), secret));
    }

    /** Where the secret came from, for messages (never the secret). */
    @Override
    public String toString() {
        return origin;
    }
}
