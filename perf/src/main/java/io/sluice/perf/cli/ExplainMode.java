package io.sluice.perf.cli;

import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What {@code --explain} asks for: {@code --explain} or {@code --explain=plan} plans the query and prints
 * its plan without running it; {@code --explain=analyze} runs it and prints the plan with what each
 * operator and exchange did.
 */
enum ExplainMode {
    /** Plan only: nothing runs. */
    PLAN,
    /** Run, then the plan with actual rows, time and bytes. */
    ANALYZE;

    /** The valid values, as the CLI spells them. */
    static final String VALUES = "plan, analyze";

    /** The mode a value names; an error listing the valid values for any other. */
    static ExplainMode parse(final String text) {
        for (final ExplainMode m : values()) {
            if (m.name().equalsIgnoreCase(text)) {
                return m;
            }
        }
        throw new IllegalArgumentException("--explain takes one of " + VALUES + " (--explain alone is plan), got '"
                + text + "'");
    }

    /**
     * Reads {@code --explain}'s optional value: attached ({@code --explain=analyze}) it must be valid; a
     * separate next argument is taken only when it is {@code plan} or {@code analyze}, so that
     * {@code --explain "select ..."} still reads the statement as the statement.
     */
    static final class Preprocessor implements CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(final Stack<String> args, final CommandSpec spec, final ArgSpec arg,
                                  final Map<String, Object> info) {
            // picocli says " " when the value, if any, was not attached to the option.
            final boolean attached = !String.valueOf(info.getOrDefault("separator", " ")).isBlank();
            ExplainMode mode = PLAN;
            if (attached) {
                try {
                    mode = parse(args.pop());
                } catch (final IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
                }
            } else if (!args.isEmpty() && isMode(args.peek())) {
                mode = parse(args.pop());
            }
            arg.setValue(mode);
            return true;
        }

        private static boolean isMode(final String s) {
            final String t = s.toUpperCase(Locale.ROOT);
            return t.equals(PLAN.name()) || t.equals(ANALYZE.name());
        }
    }
}
