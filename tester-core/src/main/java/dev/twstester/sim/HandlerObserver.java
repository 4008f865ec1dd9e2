package dev.twstester.sim;

/** Called around every handler call with the processor instance that runs it. */
interface HandlerObserver {
    void before(String function, Object key, Object processor);

    void after(String function, Object key, Object processor);
}
