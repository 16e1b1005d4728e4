package io.sluice.transport;

import io.aeron.Aeron;
import io.aeron.RethrowingErrorHandler;
import io.aeron.driver.MediaDriver;
import java.io.File;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The one media driver of a CN process, embedded, and the Aeron client connected to it.
 *
 * <p>The driver gets a fresh directory, {@code <base>/sluice-<pid>-<random>}, deleted on close, so
 * processes and tests never share or inherit one. Its threads are not daemons: a start that fails
 * half way closes what it started before throwing, and a driver must always be closed.
 */
public final class EmbeddedDriver implements AutoCloseable {
    /** Driver directories are named {@code sluice-<pid>-<random>}. */
    static final String DIRECTORY_PREFIX = "sluice-";

    /** 16 ms: the Aeron client conductor's own sleep; a quiet process's conductor parks the quiet park instead. */
    private static final long CLIENT_CONDUCTOR_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(16);

    private final TransportContext context;
    private final File directory;
    private final MediaDriver driver;
    private final Aeron aeron;

    private EmbeddedDriver(final TransportContext context, final File directory, final MediaDriver driver,
            final Aeron aeron) {
        this.context = context;
        this.directory = directory;
        this.driver = driver;
        this.aeron = aeron;
    }

    /**
     * Starts a driver configured by {@code context} in a new directory under its base directory and
     * connects a client to it.
     *
     * @throws IllegalArgumentException when the context is inconsistent
     * @throws TransportException       when the driver or the client cannot start
     */
    public static EmbeddedDriver launch(final TransportContext context) {
        context.validate();
        sweepAbandoned(context.baseDirectory());
        final File directory = new File(context.baseDirectory(), DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1));
        MediaDriver driver = null;
        Aeron aeron = null;
        boolean started = false;
        try {
            driver = MediaDriver.launch(driverContext(context, directory));
            aeron = Aeron.connect(new Aeron.Context()
                    .aeronDirectoryName(directory.getPath())
                    .subscriberErrorHandler(RethrowingErrorHandler.INSTANCE)
                    .idleStrategy(context.newLongLivedIdleStrategy(CLIENT_CONDUCTOR_MAX_PARK_NS))
                    .driverTimeoutMs(TimeUnit.NANOSECONDS.toMillis(context.clientLivenessTimeoutNs())));
            final EmbeddedDriver embedded = new EmbeddedDriver(context, directory, driver, aeron);
            started = true;
            return embedded;
        } catch (final RuntimeException e) {
            throw new TransportException("could not start the embedded media driver in " + directory + ": " + e
                    + " (check that " + context.baseDirectory() + " is writable and has space, or set "
                    + TransportContext.DIR_PROP_NAME + ")", e);
        } finally {
            if (!started) {
                CloseHelper.quietCloseAll(aeron, driver);
                IoUtil.delete(directory, true);
            }
        }
    }

    /**
     * Deletes the driver directories that processes no longer running left behind (a process killed
     * with SIGKILL cannot delete its own), so /dev/shm does not fill up across crashes.
     *
     * @return how many directories were deleted
     */
    static int sweepAbandoned(final File baseDirectory) {
        final File[] children = baseDirectory.listFiles((dir, name) -> name.startsWith(DIRECTORY_PREFIX));
        if (children == null) {
            return 0;
        }
        int deleted = 0;
        for (final File child : children) {
            final long pid = ownerPid(child.getName());
            if (pid > 0 && pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty()) {
                IoUtil.delete(child, true);
                deleted++;
            }
        }
        return deleted;
    }

    /** The pid in a directory name {@code sluice-<pid>-<random>}, or -1. */
    static long ownerPid(final String name) {
        final int end = name.indexOf('-', DIRECTORY_PREFIX.length());
        if (!name.startsWith(DIRECTORY_PREFIX) || end < 0) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(DIRECTORY_PREFIX.length(), end));
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    private static MediaDriver.Context driverContext(final TransportContext context, final File directory) {
        final long maxParkNs = TimeUnit.MILLISECONDS.toNanos(1);
        return new MediaDriver.Context()
                .aeronDirectoryName(directory.getPath())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .warnIfDirectoryExists(false)
                .threadingMode(context.threadingMode())
                .sharedIdleStrategy(context.newLongLivedIdleStrategy(maxParkNs))
                .sharedNetworkIdleStrategy(context.newLongLivedIdleStrategy(maxParkNs))
                .conductorIdleStrategy(context.newLongLivedIdleStrategy(maxParkNs))
                .senderIdleStrategy(context.newLongLivedIdleStrategy(maxParkNs))
                .receiverIdleStrategy(context.newLongLivedIdleStrategy(maxParkNs))
                .publicationTermBufferLength(context.termLength())
                .ipcTermBufferLength(context.termLength())
                .mtuLength(context.mtuLength())
                .ipcMtuLength(context.mtuLength())
                .initialWindowLength(context.receiverWindow())
                .socketRcvbufLength(context.socketRcvbufLength())
                .socketSndbufLength(context.socketSndbufLength())
                .clientLivenessTimeoutNs(context.clientLivenessTimeoutNs())
                .publicationUnblockTimeoutNs(context.publicationUnblockTimeoutNs());
    }

    /**
     * A publisher on a new exclusive publication: {@code aeron:ipc} within this process,
     * {@code aeron:udp?endpoint=host:port} to another.
     */
    public FramePublisher addPublisher(final String channel, final int streamId) {
        return new FramePublisher(aeron.addExclusivePublication(channel, streamId),
                context.idleKind().newIdleStrategy(), SystemNanoClock.INSTANCE, context.connectTimeoutNs(),
                context.stallTimeoutNs());
    }

    /** A subscriber on a new subscription to {@code channel} and {@code streamId}. */
    public FrameSubscriber addSubscriber(final String channel, final int streamId) {
        return new FrameSubscriber(aeron.addSubscription(channel, streamId));
    }

    /** The Aeron client, for what the frame classes do not cover. */
    public Aeron aeron() {
        return aeron;
    }

    /** This driver's own directory; gone after close. */
    public File directory() {
        return directory;
    }

    public TransportContext context() {
        return context;
    }

    /** Closes the client (and with it every publication and subscription), the driver, then its directory. */
    @Override
    public void close() {
        try {
            CloseHelper.closeAll(aeron, driver);
        } finally {
            IoUtil.delete(directory, true);
        }
    }
}
