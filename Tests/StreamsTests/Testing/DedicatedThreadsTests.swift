import StreamsTesting
import Testing

@Suite("onDedicatedThread")
struct DedicatedThreadsTests {
    /// A body runs on a thread of its own, outside Swift concurrency's pool, yet
    /// within the test's task, so that what it records reaches the test; after it the test is
    /// back off that thread.
    @Test func theBodyRunsOnADedicatedThreadWithinTheTest() async {
        let (thread, test) = await onDedicatedThread { (ThreadExecutor.currentName, Test.current?.name) }
        #expect(thread?.hasPrefix("streams.dedicated.") == true)
        #expect(test == "theBodyRunsOnADedicatedThreadWithinTheTest()")
        #expect(ThreadExecutor.currentName == nil)
    }
}
