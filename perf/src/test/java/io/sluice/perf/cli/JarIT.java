package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged {@code perf/target/sluice.jar} as a real process, as a user would. An
 * integration test: {@code mvn verify} runs it after the jar is packaged.
 */
class JarIT {
    static final Path JAR = Path.of("target", "sluice.jar");

    @TempDir
    Path dir;

    record Run(int exitCode, String out, String err) {
    }

    static Run java(final Path workDir, final String... args) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-jar");
        command.add(JAR.toAbsolutePath().toString());
        command.addAll(List.of(args));
        final Path out = workDir.resolve("stdout.txt");
        final Path err = workDir.resolve("stderr.txt");
        final Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("sluice " + String.join(" ", args) + " did not finish in 120 s");
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void theJarGeneratesAndInspects() throws Exception {
        assertThat(JAR).as("the packaged jar").isRegularFile();
        final Path store = dir.resolve("store");
        final Run gen = java(dir, "gen", "--sf", "0.01", "--tables", "region,nation,supplier", "--out", store.toString());
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        assertThat(gen.out()).contains("generated 3 tables").containsPattern("peak RSS \\d+ MiB");
        final Run inspect = java(dir, "inspect", "--store", store.toString(), "--verify");
        assertThat(inspect.exitCode()).as(inspect.toString()).isZero();
        assertThat(inspect.out()).contains("nation: 25 rows").contains("region: 5 rows").contains("supplier: 100 rows");
        // Chronicle and Agrona need no extra flags under java -jar: the manifest carries them.
        assertThat(inspect.err()).isEmpty();
    }

    @Test
    void userErrorsAndUsageErrorsHaveTheirExitCodes() throws Exception {
        assertThat(JAR).as("the packaged jar").isRegularFile();
        final Run missing = java(dir, "inspect", "--store", dir.resolve("nowhere").toString());
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).startsWith("sluice inspect: error: store ").doesNotContain("\tat ");
        final Run usage = java(dir, "gen", "--sf", "abc", "--out", dir.resolve("x").toString());
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).contains("'abc' is not a number");
        final Run version = java(dir, "--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("sluice 0.");
    }

    static final Path LAUNCHER = Path.of("..", "bin", "sluice");

    /** Runs a launcher script with extra environment variables, capturing its output in this test's directory. */
    Run launcher(final Path script, final Map<String, String> env, final String... args)
            throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>();
        command.add(script.toAbsolutePath().normalize().toString());
        command.addAll(List.of(args));
        final Path out = dir.resolve("launcher-out.txt");
        final Path err = dir.resolve("launcher-err.txt");
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        final Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(script + " " + String.join(" ", args) + " did not finish in 120 s");
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void theLauncherRunsTheReadmesCommandsAsWritten() throws Exception {
        assertThat(LAUNCHER).as("bin/sluice").isExecutable();
        final Path store = dir.resolve("store");
        final Run gen = launcher(LAUNCHER, Map.of("SLUICE_JAVA_OPTS", "-Xmx512m"), "gen", "--sf", "0.01", "--out",
                store.toString(), "--tables", "region,nation");
        assertThat(gen.exitCode()).as(gen.toString()).isZero();
        assertThat(gen.out()).contains("generated 2 tables");
        final Run inspect = launcher(LAUNCHER, Map.of(), "inspect", "--store", store.toString());
        assertThat(inspect.exitCode()).as(inspect.toString()).isZero();
        assertThat(inspect.out()).contains("nation: 25 rows").contains("region: 5 rows");
        assertThat(inspect.err()).isEmpty();
    }

    @Test
    void theLauncherRunsOnTheParallelCollectorUnlessTheOptionsChooseOne() throws Exception {
        final Run byDefault = launcher(LAUNCHER, Map.of("SLUICE_JAVA_OPTS", "-XX:+PrintCommandLineFlags"), "--version");
        assertThat(byDefault.exitCode()).as(byDefault.toString()).isZero();
        assertThat(byDefault.out()).contains("-XX:+UseParallelGC").contains("sluice 0.");
        final Run chosen = launcher(LAUNCHER, Map.of("SLUICE_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC -XX:+PrintCommandLineFlags"),
                "--version");
        assertThat(chosen.exitCode()).as(chosen.toString()).isZero();
        assertThat(chosen.out()).contains("-XX:+UseSerialGC").doesNotContain("UseParallelGC").contains("sluice 0.");
    }

    @Test
    void theLauncherWithoutABuiltJarSaysHowToBuildIt() throws Exception {
        final Path checkout = dir.resolve("checkout");
        Files.createDirectories(checkout.resolve("bin"));
        final Path script = Files.copy(LAUNCHER, checkout.resolve("bin").resolve("sluice"));
        final Run r = launcher(script, Map.of(), "--version");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("sluice: " + checkout.toRealPath().resolve("bin/../perf/target/sluice.jar")
                + " is missing: build it with: cd " + checkout.toRealPath() + " && mvn -B -q package -DskipTests\n");
    }
}
