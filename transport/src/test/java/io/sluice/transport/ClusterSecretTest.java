package io.sluice.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSecretTest {
    @TempDir
    Path dir;

    private Path secretFile(final String content, final String mode) throws Exception {
        final Path file = dir.resolve("secret");
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void aFileOthersCanReadOrWriteIsRefusedNamingTheFix() throws Exception {
        final Path readable = secretFile("0123456789abcdef0123", "rw-r--r--");
        assertThatThrownBy(() -> ClusterSecret.read(readable)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(readable.toString()).hasMessageContaining("chmod 600 " + readable);
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-rw--w-"));
        assertThatThrownBy(() -> ClusterSecret.read(readable)).hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(ClusterSecret.read(readable).toString()).isEqualTo("secret file " + readable);
    }

    @Test
    void aShortOrMissingSecretIsRefusedWithTheCommandThatMakesAGoodOne() throws Exception {
        final Path shortOne = secretFile("too short\n", "rw-------");
        assertThatThrownBy(() -> ClusterSecret.read(shortOne)).hasMessageContaining("holds 9 bytes")
                .hasMessageContaining("head -c 32 /dev/urandom | base64 > " + shortOne);
        assertThatThrownBy(() -> ClusterSecret.read(dir.resolve("none"))).hasMessageContaining("does not exist");
    }

    @Test
    void trailingLineBreaksAreNotPartOfTheSecretAndEachUseHasItsOwnKey() throws Exception {
        final byte[] withNewline = ClusterSecret.read(secretFile("0123456789abcdef0123\n", "rw-------")).key("data");
        final byte[] without = ClusterSecret.read(secretFile("0123456789abcdef0123", "rw-------")).key("data");
        assertThat(withNewline).containsExactly(without).hasSize(32);
        final ClusterSecret secret = ClusterSecret.read(secretFile("0123456789abcdef0123", "rw-------"));
        assertThat(secret.key("control")).isNotEqualTo(secret.key("data"));
        assertThat(ClusterSecret.of("0123456789abcdef0124".getBytes()).key("data")).isNotEqualTo(without);
    }
}
