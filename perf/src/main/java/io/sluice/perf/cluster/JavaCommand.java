package io.sluice.perf.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The command line that starts another {@code sluice} process like this one: the same java executable
 * and classpath, the JVM flags Agrona and Chronicle need on Java 17 (the build writes them into
 * {@code sluice-version.properties}, from the parent pom's {@code sluice.jvm.flags}), the launcher's
 * default collector unless the extra JVM arguments choose one, extra JVM arguments, then a subcommand
 * and its arguments.
 */
public final class JavaCommand {
    /**
     * The {@code sluice} command's main class, by name: the command line sits above this package, which
     * only starts it.
     */
    public static final String MAIN_CLASS = "io.sluice.perf.cli.SluiceCommand";

    /**
     * The collector {@code bin/sluice} and the processes Sluice starts run on unless told otherwise: the
     * parallel collector. Queries allocate large tables that live for one query; Java 17's default, G1,
     * answers them with concurrent marking cycles that take one of two cores from the workers (docs/tuning.md,
     * "Garbage collector"; the measurements are in CHANGELOG.md).
     */
    public static final String DEFAULT_COLLECTOR = "-XX:+UseParallelGC";
    /**
     * No hsperfdata counters: without them the JVM's periodic task thread stops waking 20 times a second
     * to sample them, which an idle cluster of processes otherwise pays in every process.
     */
    public static final String NO_PERF_DATA = "-XX:-UsePerfData";
    private static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use(Serial|Parallel|G1|Z|Shenandoah|Epsilon)GC");

    private JavaCommand() {
    }

    /** The JVM flags every Sluice process needs, as the build recorded them. */
    public static List<String> requiredJvmFlags() {
        final Properties properties = new Properties();
        try (InputStream in = JavaCommand.class.getResourceAsStream("/sluice-version.properties")) {
            if (in == null) {
                throw new IllegalStateException("sluice-version.properties is missing from the classpath: rebuild with"
                        + " mvn package");
            }
            properties.load(in);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read sluice-version.properties: " + e.getMessage(), e);
        }
        final String flags = properties.getProperty("jvm.flags", "").trim();
        if (flags.isEmpty() || flags.startsWith("${")) {
            throw new IllegalStateException("sluice-version.properties has no JVM flags (" + flags + "): rebuild with"
                    + " mvn package");
        }
        return Arrays.asList(flags.split("\\s+"));
    }

    /** Whether the JVM arguments choose a garbage collector (then {@link #DEFAULT_COLLECTOR} stays out). */
    public static boolean choosesCollector(final List<String> jvmArgs) {
        return jvmArgs.stream().anyMatch(arg -> COLLECTOR.matcher(arg).matches());
    }

    /**
     * {@code java <flags> [-XX:+UseParallelGC] -XX:-UsePerfData <jvmArgs> -cp <classpath> io.sluice.perf.cli.SluiceCommand <args>};
     * the collector flag only when {@code jvmArgs} choose none.
     */
    public static List<String> sluice(final List<String> jvmArgs, final List<String> args) {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(requiredJvmFlags());
        if (!choosesCollector(jvmArgs)) {
            command.add(DEFAULT_COLLECTOR);
        }
        command.add(NO_PERF_DATA);
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        command.addAll(args);
        return command;
    }
}
