package io.sluice.s3;

import io.sluice.format.StorageException;
import io.sluice.storage.StoreLock;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;

/**
 * The one writer of a store on object storage: the object {@value StoreLock#FILE} in the store, created with a
 * conditional put ({@code If-None-Match: *}), so of two writers starting at once exactly one creates it; the other
 * fails at once with an error naming the holder. Closing deletes it. The object records who holds it (pid, host,
 * command, since): a holder on this host whose process is gone left a stale lock, which the next writer here takes
 * over. A server that ignores {@code If-None-Match} (older S3-compatible servers) cannot make the put conditional; the
 * writer then reads the object back and fails if another writer's record replaced its own, which narrows the race
 * without closing it (see docs/object-storage.md).
 */
public final class S3StoreLock implements AutoCloseable {
    private final S3Objects objects;
    private final String token;
    private boolean closed;

    private S3StoreLock(final S3Objects objects, final String token) {
        this.objects = objects;
        this.token = token;
    }

    /**
     * Takes the lock of the store {@code objects} belong to, or fails at once.
     *
     * @param command what the writer does, recorded for whoever finds the store locked
     * @throws StorageException naming the holder when another writer has it
     */
    public static S3StoreLock acquire(final S3Objects objects, final String command) {
        return acquire(objects, command, UUID.randomUUID().toString());
    }

    /** {@link #acquire(S3Objects, String)} with the token this writer's record carries. */
    static S3StoreLock acquire(final S3Objects objects, final String command, final String token) {
        final byte[] record = record(token, command);
        for (int attempt = 0; attempt < 2; attempt++) {
            if (objects.putIfAbsent(StoreLock.FILE, record)) {
                final byte[] back = objects.get(StoreLock.FILE);
                final Properties held = parse(back);
                if (!token.equals(held.getProperty("token"))) {
                    throw locked(objects, held);
                }
                return new S3StoreLock(objects, token);
            }
            final byte[] existing = objects.get(StoreLock.FILE);
            if (existing == null) {
                continue; // released between our put and our read: try once more
            }
            final Properties held = parse(existing);
            if (token.equals(held.getProperty("token"))) {
                // Our put went through and a retry of it (its answer lost to a timeout) found the object there.
                return new S3StoreLock(objects, token);
            }
            if (!stale(held)) {
                throw locked(objects, held);
            }
            objects.delete(StoreLock.FILE);
        }
        throw new StorageException("cannot take the lock of store " + objects.location() + ": other writers keep"
                + " taking it; run the write again when they finish");
    }

    private static boolean stale(final Properties held) {
        final String host = held.getProperty("host", "");
        final long pid;
        try {
            pid = Long.parseLong(held.getProperty("pid", "-1"));
        } catch (final NumberFormatException e) {
            return false;
        }
        return host.equals(localHost()) && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    private static StorageException locked(final S3Objects objects, final Properties held) {
        return new StorageException("store " + objects.location() + " is locked by another writer: pid "
                + held.getProperty("pid", "?") + " on " + held.getProperty("host", "?") + " ("
                + held.getProperty("command", "?") + "), since " + held.getProperty("since", "?")
                + "; wait until it finishes. If that writer is gone (it ran on another host), delete the object "
                + objects.location().uri(StoreLock.FILE) + " with an S3 client and write again");
    }

    static byte[] record(final String token, final String command) {
        final Properties p = new Properties();
        p.setProperty("token", token);
        p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
        p.setProperty("host", localHost());
        p.setProperty("command", command);
        p.setProperty("since", Instant.now().toString());
        final StringWriter text = new StringWriter();
        try {
            p.store(text, "the writer holding this store's lock");
        } catch (final IOException e) {
            throw new IllegalStateException(e);
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Properties parse(final byte[] record) {
        final Properties p = new Properties();
        if (record != null) {
            try {
                p.load(new StringReader(new String(record, StandardCharsets.UTF_8)));
            } catch (final IOException | IllegalArgumentException e) {
                p.setProperty("command", "an unreadable record");
            }
        }
        return p;
    }

    private static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            return "localhost";
        }
    }

    /** The token this writer's record carries. */
    String token() {
        return token;
    }

    /** Deletes the lock object, if it is still this writer's. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        final Properties held = parse(objects.get(StoreLock.FILE));
        if (token.equals(held.getProperty("token"))) {
            objects.delete(StoreLock.FILE);
        }
    }
}
