package io.sluice.perf.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A Java main class running in a new JVM for a test: started with this JVM's java, classpath and the JVM flags
 * Sluice needs, its stdout and stderr captured line by line so the test can await a line.
 *
 * <p>Started inside a network namespace ({@link Launch#startIn}), the process is {@code ip netns exec}, which execs
 * the JVM in place: {@link #pid()} is the child JVM's own pid, and signals reach the JVM.
 *
 * <p>{@link #close()} ends the process (TERM, then KILL after {@link #TERM_GRACE}) and any descendants it left; a
 * shutdown hook kills whatever is still running when the test JVM exits.
 */
public final class JavaProcess implements AutoCloseable {
    /** The system property holding the JVM flags Sluice needs, passed by the parent pom from its Maven property. */
    public static final String JVM_FLAGS_PROPERTY = "sluice.jvm.flags";
    /** How long {@link #close()} waits for the process to end after TERM before it kills it. */
    public static final Duration TERM_GRACE = Duration.ofSeconds(5);

    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int OUTPUT_LINES_SHOWN = 40;
    private static final Pattern SIGNAL_NAME = Pattern.compile("[A-Z][A-Z0-9]*");
    private static final Set<JavaProcess> RUNNING = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_ADDED = new AtomicBoolean();

    private final String description;
    private final Process process;
    private final Output stdout;
    private final Output stderr;

    /** The command line of one JVM to start, built up before {@link #start()}. */
    public static final class Launch {
        private final Class<?> mainClass;
        private final List<String> jvmArgs = new ArrayList<>();
        private final List<String> args = new ArrayList<>();

        private Launch(final Class<?> mainClass) {
            this.mainClass = mainClass;
        }

        /** Adds JVM options ({@code -Xmx64m}, {@code -Dname=value}) after the flags Sluice needs. */
        public Launch jvmArgs(final String... options) {
            jvmArgs.addAll(Arrays.asList(options));
            return this;
        }

        /** Adds arguments for the main class. */
        public Launch args(final String... arguments) {
            args.addAll(Arrays.asList(arguments));
            return this;
        }

        /** java, the flags Sluice needs, the extra JVM options, the classpath, the main class and its arguments. */
        public List<String> commandLine() {
            final List<String> command = new ArrayList<>();
            command.add(javaExecutable());
            command.addAll(sluiceJvmFlags());
            command.addAll(jvmArgs);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(mainClass.getName());
            command.addAll(args);
            return List.copyOf(command);
        }

        /** Starts the JVM in this JVM's network namespace. */
        public JavaProcess start() {
            return JavaProcess.start(new ProcessBuilder(commandLine()));
        }

        /** Starts the JVM inside {@code host}'s namespace. */
        public JavaProcess startIn(final NetworkNamespaces namespaces, final int host) {
            return JavaProcess.start(namespaces.processBuilder(host, commandLine()));
        }
    }

    private JavaProcess(final String description, final Process process) {
        this.description = description;
        this.process = process;
        this.stdout = new Output("stdout", process.getInputStream(), description);
        this.stderr = new Output("stderr", process.getErrorStream(), description);
    }

    /** The command line for {@code mainClass}; add options and arguments, then start it. */
    public static Launch of(final Class<?> mainClass) {
        return new Launch(mainClass);
    }

    /**
     * Starts any command, capturing its output. The builder's output must not be redirected: the lines are read from
     * its pipes.
     */
    public static JavaProcess start(final ProcessBuilder builder) {
        final String description = "`" + abbreviate(builder.command()) + "`";
        if (builder.redirectOutput() != ProcessBuilder.Redirect.PIPE
                || builder.redirectError() != ProcessBuilder.Redirect.PIPE || builder.redirectErrorStream()) {
            throw new IllegalArgumentException("cannot capture the output of " + description
                    + ": leave its stdout and stderr as pipes");
        }
        addShutdownHookOnce();
        final Process process;
        try {
            process = builder.start();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start " + description, e);
        }
        final JavaProcess started = new JavaProcess(description + " (pid " + process.pid() + ")", process);
        RUNNING.add(started);
        return started;
    }

    /** The process's pid; the child JVM's own also when started through {@code ip netns exec}. */
    public long pid() {
        return process.pid();
    }

    /** The underlying process, to write to its stdin or wait for it. */
    public Process process() {
        return process;
    }

    /** Whether the process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The stdout lines printed so far. */
    public List<String> stdout() {
        return List.copyOf(stdout.lines);
    }

    /** The stderr lines printed so far. */
    public List<String> stderr() {
        return List.copyOf(stderr.lines);
    }

    /**
     * Waits for the first stdout line that {@code matches} and returns it.
     *
     * @throws AssertionError with everything the process printed, when no such line came within {@code timeout} or
     *     the process closed its stdout without printing one
     */
    public String awaitLine(final Predicate<String> matches, final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        int checked = 0;
        while (true) {
            // Read before scanning: once the reader is done, every line it read is already in the list.
            final boolean ended = stdout.ended;
            final List<String> lines = stdout.lines;
            for (final int size = lines.size(); checked < size; checked++) {
                if (matches.test(lines.get(checked))) {
                    return lines.get(checked);
                }
            }
            if (ended) {
                throw new AssertionError(description + " ended its stdout without the line awaited; "
                        + state() + "\n" + output());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(description + " printed no line awaited within " + timeout.toMillis()
                        + " ms; " + state() + "\n" + output());
            }
            LockSupport.parkNanos(POLL_NS);
        }
    }

    /**
     * Waits for the process to exit and returns its exit code.
     *
     * @throws AssertionError with its output when it is still running after {@code timeout}
     */
    public int awaitExit(final Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(description + " still runs after " + timeout.toMillis() + " ms\n" + output());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + description + " to exit", e);
        }
        return process.exitValue();
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}, {@code TERM}, {@code KILL}) with {@code kill}. */
    public void signal(final String signal) {
        if (!SIGNAL_NAME.matcher(signal).matches()) {
            throw new IllegalArgumentException("signal must be a name such as STOP, CONT, TERM or KILL, was '"
                    + signal + "'");
        }
        Commands.check(List.of("kill", "-" + signal, Long.toString(pid())));
    }

    /** Kills the process at once (KILL), without waiting for it. */
    public void destroyForcibly() {
        process.destroyForcibly();
    }

    /** Ends the process, TERM first and KILL after {@link #TERM_GRACE}, then kills descendants it left running. */
    @Override
    public void close() {
        RUNNING.remove(this);
        if (!process.isAlive()) {
            return;
        }
        final List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        // A stopped process keeps TERM pending until it continues.
        Commands.run(List.of("kill", "-CONT", Long.toString(pid())));
        try {
            if (!process.waitFor(TERM_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                if (!process.waitFor(TERM_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException(description + " still runs after KILL");
                }
            }
        } catch (final InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            descendants.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Override
    public String toString() {
        return description;
    }

    private String state() {
        return process.isAlive() ? "it still runs" : "it exited with " + process.exitValue();
    }

    /** The last lines of stdout and stderr, for a failure message. */
    private String output() {
        return stdout.tail() + stderr.tail();
    }

    private static String javaExecutable() {
        return ProcessHandle.current().info().command().orElseGet(
                () -> System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    }

    private static List<String> sluiceJvmFlags() {
        final String flags = System.getProperty(JVM_FLAGS_PROPERTY);
        if (flags == null || flags.isBlank()) {
            throw new IllegalStateException("system property " + JVM_FLAGS_PROPERTY + " is not set: the parent"
                    + " pom.xml passes it to surefire and failsafe from its Maven property of the same name, so run the"
                    + " test through Maven, or pass -D" + JVM_FLAGS_PROPERTY + "=\"<the flags in pom.xml>\"");
        }
        return List.of(flags.trim().split("\\s+"));
    }

    /** The command with a long classpath shortened, for messages. */
    private static String abbreviate(final List<String> command) {
        final List<String> shown = new ArrayList<>(command.size());
        for (final String part : command) {
            shown.add(part.length() > 120 ? part.substring(0, 60) + "..." : part);
        }
        return String.join(" ", shown);
    }

    private static void addShutdownHookOnce() {
        if (HOOK_ADDED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(
                    () -> RUNNING.forEach(running -> running.process.destroyForcibly()), "kill child JVMs"));
        }
    }

    /** The lines of one output stream of the process, read by a daemon thread as they come. */
    private static final class Output {
        private final String name;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private volatile boolean ended;

        Output(final String name, final InputStream stream, final String description) {
            this.name = name;
            final Thread reader = new Thread(() -> read(stream), name + " of " + description);
            reader.setDaemon(true);
            reader.start();
        }

        private void read(final InputStream stream) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException e) {
                lines.add("(reading " + name + " failed: " + e + ")");
            } finally {
                ended = true;
            }
        }

        String tail() {
            final List<String> all = List.copyOf(lines);
            final List<String> shown = all.subList(Math.max(0, all.size() - OUTPUT_LINES_SHOWN), all.size());
            return "--- " + name + (shown.size() < all.size() ? " (last " + shown.size() + " lines)" : "") + "\n"
                    + String.join("\n", shown) + (shown.isEmpty() ? "" : "\n");
        }
    }
}
