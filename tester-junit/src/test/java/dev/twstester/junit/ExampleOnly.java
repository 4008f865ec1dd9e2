package dev.twstester.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks an example test class that only {@link Kit} runs (through JUnit's EngineTestKit): many
 * fail on purpose. Run any other way, it is skipped.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("example")
@ExtendWith(ExampleOnly.Condition.class)
public @interface ExampleOnly {
    /** The configuration parameter Kit sets. */
    String PARAMETER = "twstester.examples";

    /** Enabled only when {@link #PARAMETER} is true. */
    class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(PARAMETER).filter("true"::equals).isPresent()
                    ? ConditionEvaluationResult.enabled("run by EngineTestKit")
                    : ConditionEvaluationResult.disabled("an example for EngineTestKit; it fails on purpose");
        }
    }
}
