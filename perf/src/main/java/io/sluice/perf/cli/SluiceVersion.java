package io.sluice.perf.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven filtered into {@code sluice-version.properties}. */
public final class SluiceVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        final Properties properties = new Properties();
        try (InputStream in = SluiceVersion.class.getResourceAsStream("/sluice-version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        }
        return new String[] {"sluice " + properties.getProperty("version", "unknown")
                + " (Java " + System.getProperty("java.version") + ")"};
    }
}
