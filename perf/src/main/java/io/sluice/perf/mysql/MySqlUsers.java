package io.sluice.perf.mysql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who may log in over the MySQL protocol, and with which password. Without a cluster secret:
 * {@link #anyWithoutPassword()}, any user name with an empty password (the server then takes loopback
 * clients only). With one: the users of a file only its owner may read ({@code --mysql-users FILE}),
 * a line per user, {@code name:password} or {@code name:*HEX} (the 40 hex digits of SHA1(SHA1(password)),
 * as MySQL's {@code authentication_string} holds them); blank lines and lines starting with # are skipped.
 */
public final class MySqlUsers {
    private final Map<String, byte[]> stored;

    private MySqlUsers(final Map<String, byte[]> stored) {
        this.stored = stored;
    }

    /** Any user, with an empty password. */
    public static MySqlUsers anyWithoutPassword() {
        return new MySqlUsers(null);
    }

    /** Whether only listed users may log in. */
    boolean listed() {
        return stored != null;
    }

    /**
     * Whether {@code user} exists here (any user does without a file).
     */
    boolean exists(final String user) {
        return stored == null || stored.containsKey(user);
    }

    /** SHA1(SHA1(password)) of a listed user; null for the empty password (and for every user without a file). */
    byte[] stored(final String user) {
        return stored == null ? null : stored.get(user);
    }

    /**
     * Reads a users file.
     *
     * @throws IllegalArgumentException naming the file and the fix when it is missing, readable by its group or
     *                                  by others, or has a line that is not {@code name:password}
     */
    public static MySqlUsers read(final Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--mysql-users " + file + " does not exist or is not a file: write a"
                    + " line name:password per user and chmod 600 " + file);
        }
        final PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (posix != null) {
            final Set<PosixFilePermission> p;
            try {
                p = posix.readAttributes().permissions();
            } catch (final IOException e) {
                throw new IllegalArgumentException("cannot read the permissions of --mysql-users " + file + ": " + e, e);
            }
            if (p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ)
                    || p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new IllegalArgumentException("--mysql-users " + file + " can be read or written by other users"
                        + " of this host, who would learn the passwords: chmod 600 " + file);
            }
        }
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read --mysql-users " + file + ": " + e.getMessage(), e);
        }
        final Map<String, byte[]> users = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": not name:password (a user per line,"
                        + " e.g. alice:secret or alice:*<40 hex digits of SHA1(SHA1(password))>)");
            }
            final String name = line.substring(0, colon);
            final String password = line.substring(colon + 1);
            if (users.containsKey(name)) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": user " + name + " is listed twice");
            }
            users.put(name, password.isEmpty() ? null : storedForm(password, file, i + 1));
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("--mysql-users " + file + " lists no user: write a line name:password"
                    + " per user");
        }
        return new MySqlUsers(users);
    }

    private static byte[] storedForm(final String password, final Path file, final int line) {
        if (password.length() == 41 && password.charAt(0) == '*') {
            try {
                return HexFormat.of().parseHex(password.substring(1));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + line + ": *" + " must be followed by 40 hex digits"
                        + " (SHA1(SHA1(password)))", e);
            }
        }
        return NativePassword.stored(password);
    }
}
