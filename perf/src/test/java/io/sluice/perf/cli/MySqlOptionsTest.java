package io.sluice.perf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.storage.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --mysql} and {@code --mysql-users} of {@code sluice coordinator} and {@code sluice cluster up}
 * are checked before anything starts: a users file needs a cluster secret and a secret needs a users
 * file, which only its owner may read.
 */
class MySqlOptionsTest {
    @TempDir
    Path dir;

    private Path store;
    private Path secret;
    private Path users;

    @BeforeEach
    void files() throws Exception {
        store = Store.create(dir.resolve("store")).dir();
        secret = Files.writeString(dir.resolve("secret"), "0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        users = Files.writeString(dir.resolve("users"), "alice:wonderland\n");
        Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rw-------"));
    }

    private Cli.Result coordinator(final String... more) {
        final String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"coordinator", "--listen", "127.0.0.1:0", "--store", store.toString(),
            "--mysql=127.0.0.1:0"}, 0, args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return Cli.run(args);
    }

    @Test
    void aUsersFileWithoutASecretIsRefused() {
        final Cli.Result r = coordinator("--mysql-users", users.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("--mysql-users needs a cluster secret (--secret-file FILE)");
    }

    @Test
    void aSecretWithoutAUsersFileIsRefused() {
        final Cli.Result r = coordinator("--secret-file", secret.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("--mysql with a cluster secret needs --mysql-users FILE");
    }

    @Test
    void aUsersFileItsGroupCanReadIsRefused() throws Exception {
        Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rw-r-----"));
        final Cli.Result r = coordinator("--secret-file", secret.toString(), "--mysql-users", users.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("can be read or written by other users").contains("chmod 600 " + users);
    }

    @Test
    void usersWithoutMysqlAreRefusedOnClusterUpToo() {
        final Cli.Result r = Cli.run("cluster", "up", "--cn", "1", "--cores", "1", "--store", store.toString(),
                "--mysql-users", users.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("--mysql-users is for the MySQL server: add --mysql HOST:PORT");
    }
}
