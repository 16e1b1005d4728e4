package io.sluice.perf.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .ci/test-tools}, which {@code mvn verify -Dsluice.test.netns.required=true} runs before it
 * builds, on a PATH of stand-ins: with ip, nft, kill and mariadb there it does nothing; as root it installs what
 * is missing with apt-get; as another user, or where apt-get does not provide it, it fails naming the
 * package and the way out; and the root pom runs it, once, when that property is true.
 */
class TestToolsScriptTest {
    private static final Path SCRIPT = Path.of("../.ci/test-tools").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** What one run printed and how it ended, and the apt-get commands it ran. */
    record Run(int exitCode, String output, List<String> aptGet) {
    }

    private Path bin() throws IOException {
        final Path bin = Files.createDirectories(dir.resolve("bin"));
        // The few real commands the script itself uses.
        for (final String tool : List.of("mktemp", "rm", "cat")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of(whichReal(tool)));
        }
        return bin;
    }

    private static String whichReal(final String tool) {
        for (final String d : List.of("/usr/bin", "/bin")) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return d + "/" + tool;
            }
        }
        throw new IllegalStateException(tool + " is in neither /usr/bin nor /bin");
    }

    private static void script(final Path file, final String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private void tool(final Path bin, final String name) throws IOException {
        script(bin.resolve(name), "exit 0\n");
    }

    private void user(final Path bin, final int uid) throws IOException {
        script(bin.resolve("id"), "echo " + uid + "\n");
    }

    /** An apt-get that logs its arguments and, on install, puts the packages' commands on the PATH. */
    private void aptGet(final Path bin, final boolean provides) throws IOException {
        script(bin.resolve("apt-get"), "echo \"$*\" >> " + dir.resolve("apt-get.log") + "\n"
                + "case \"$*\" in *install*)\n"
                + (provides ? "  for p in \"$@\"; do case $p in nftables) t=nft;; iproute2) t=ip;; procps) t=kill;;"
                + " mariadb-client) t=mariadb;;"
                + " *) t=;; esac; [ -n \"$t\" ] && printf '#!/bin/sh\\nexit 0\\n' > " + bin + "/$t && /bin/chmod +x "
                + bin + "/$t; done\n" : "")
                + "  echo 'Setting up packages...';;\nesac\n");
    }

    private Run run(final Path bin) throws IOException, InterruptedException {
        final ProcessBuilder pb = new ProcessBuilder("/bin/bash", SCRIPT.toString()).redirectErrorStream(true);
        pb.environment().put("PATH", bin.toString());
        final Process p = pb.start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final Path log = dir.resolve("apt-get.log");
        return new Run(p.exitValue(), output, Files.exists(log) ? Files.readAllLines(log) : List.of());
    }

    @Test
    void withEveryToolThereItDoesNothing() throws Exception {
        final Path bin = bin();
        tool(bin, "ip");
        tool(bin, "nft");
        tool(bin, "kill");
        tool(bin, "mariadb");
        user(bin, 1000);
        aptGet(bin, true);
        final Run r = run(bin);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).isEmpty();
        assertThat(r.aptGet()).isEmpty();
    }

    @Test
    void asRootItInstallsWhatIsMissingWithAptGet() throws Exception {
        final Path bin = bin();
        tool(bin, "ip");
        tool(bin, "kill");
        user(bin, 0);
        aptGet(bin, true);
        final Run r = run(bin);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).isEqualTo("sluice: installing nftables mariadb-client for the tests that need network"
                + " namespaces (apt-get)\n");
        assertThat(r.aptGet()).containsExactly("update -qq",
                "install -y -qq --no-install-recommends nftables mariadb-client");
        assertThat(bin.resolve("nft")).isExecutable();
        assertThat(bin.resolve("mariadb")).isExecutable();
    }

    @Test
    void asAnotherUserItFailsNamingThePackagesAndTheWayOut() throws Exception {
        final Path bin = bin();
        tool(bin, "kill");
        user(bin, 1000);
        aptGet(bin, true);
        final Run r = run(bin);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).startsWith("sluice: the tests that need network namespaces"
                + " (-Dsluice.test.netns.required=true) need iproute2 nftables mariadb-client, which is not installed, and they run as"
                + " root: run the build as root").contains("or leave out -Dsluice.test.netns.required=true");
        assertThat(r.aptGet()).isEmpty();
    }

    @Test
    void whenAptGetDoesNotProvideTheCommandItFailsSayingSo() throws Exception {
        final Path bin = bin();
        tool(bin, "ip");
        tool(bin, "kill");
        tool(bin, "mariadb");
        user(bin, 0);
        aptGet(bin, false);
        final Run r = run(bin);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).contains("sluice: apt-get installed nftables but nft is still not on the PATH");
    }

    @Test
    void theRootPomRunsItOnceBeforeAnythingIsBuiltWhenTheTestsMustRun() throws IOException {
        final String pom = Files.readString(Path.of("../pom.xml"));
        final String profile = pom.substring(pom.indexOf("<profile>"), pom.indexOf("</profile>"));
        assertThat(profile).contains("<name>sluice.test.netns.required</name>", "<value>true</value>",
                "<inherited>false</inherited>", "<phase>validate</phase>",
                "<argument>${project.basedir}/.ci/test-tools</argument>");
        assertThat(Files.readString(Path.of("../.ci/run"))).as(".ci/run runs README's test command, nothing else"
                + " installs").contains("\nmvn -B verify -Dsluice.test.netns.required=true\n").doesNotContain("apt-get");
    }
}
