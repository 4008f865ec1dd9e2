package dev.twstester.sim;

/** Spark's {@code StatefulProcessorHandleState}, in Spark's order (timer checks compare positions). */
enum HandleState {
    CREATED, PRE_INIT, INITIALIZED, DATA_PROCESSED, TIMER_PROCESSED, CLOSED
}
