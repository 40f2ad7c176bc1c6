import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A persistent pool: `threads - 1` workers created once, plus the calling thread. `run` hands
/// every participant the same job with its index; workers spin briefly for the next job (jobs
/// come every few microseconds during a forward pass), then park on a condition variable so an
/// idle model costs no CPU. Nothing is allocated per job.
public final class ThreadPool: @unchecked Sendable {
    public let threads: Int
    private let shared: Shared
    private var workers: [pthread_t] = []
    /// Spin iterations before a worker parks (a few tens of microseconds).
    private static let spinLimit = 20_000

    /// What the workers and the caller share. Workers hold this, never the pool: the pool's
    /// deinit is what stops and joins them, so it must run while they are alive. (A worker that
    /// read the pool through an `unowned` reference kept it alive for as long as it ran, and one
    /// that started after the pool's last release, as when a model load failed right after
    /// creating its pool, read a destroyed object and trapped.)
    private final class Shared: @unchecked Sendable {
        let generation = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
        /// The next chunk `runChunked` hands out.
        let cursor = Atomic<Int>(0)
        var mutex = pthread_mutex_t()
        var wake = pthread_cond_t()
        var job: ((Int) -> Void)?

        init() {
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&wake, nil)
        }

        deinit {
            pthread_cond_destroy(&wake)
            pthread_mutex_destroy(&mutex)
        }

        /// Starts the next job (or the stop) for every parked or spinning worker.
        func publish() {
            pthread_mutex_lock(&mutex)
            generation.add(1, ordering: .releasing)
            pthread_cond_broadcast(&wake)
            pthread_mutex_unlock(&mutex)
        }

        func workerLoop(index: Int) {
            var seen = 0
            while true {
                var spins = 0
                while generation.load(ordering: .acquiring) == seen && spins < ThreadPool.spinLimit { spins += 1 }
                if generation.load(ordering: .acquiring) == seen {
                    pthread_mutex_lock(&mutex)
                    while generation.load(ordering: .acquiring) == seen { pthread_cond_wait(&wake, &mutex) }
                    pthread_mutex_unlock(&mutex)
                }
                seen = generation.load(ordering: .acquiring)
                if stopping.load(ordering: .acquiring) { return }
                job!(index)
                finished.add(1, ordering: .releasing)
            }
        }
    }

    private final class WorkerContext {
        let shared: Shared
        let index: Int
        init(shared: Shared, index: Int) { self.shared = shared; self.index = index }
    }

    public init(threads: Int) {
        self.threads = max(1, threads)
        shared = Shared()
        for index in 1..<self.threads {
            let context = Unmanaged.passRetained(WorkerContext(shared: shared, index: index)).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { raw in
                let context = Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue()
                context.shared.workerLoop(index: context.index)
                return nil
            }, context)
            precondition(rc == 0, "cannot start a worker thread (error \(rc))")
            workers.append(thread)
        }
    }

    deinit {
        shared.stopping.store(true, ordering: .releasing)
        shared.publish()
        for t in workers { pthread_join(t, nil) }
    }

    /// Runs `body(index)` for every index in 0..<threads, concurrently; returns when all are done.
    public func run(_ body: (Int) -> Void) {
        if threads == 1 { return body(0) }
        withoutActuallyEscaping(body) { escapable in
            shared.job = escapable
            shared.finished.store(0, ordering: .relaxed)
            shared.publish()
            escapable(0)
            // Spin for the stragglers, then yield: on a busy machine a worker may be descheduled.
            var spins = 0
            while shared.finished.load(ordering: .acquiring) < threads - 1 {
                spins += 1
                if spins > Self.spinLimit { sched_yield() }
            }
            shared.job = nil
        }
    }

    /// Runs `body(segment, rows, index)` over `segments` row ranges of `rows(segment)` rows each,
    /// in chunks the participants take from one cursor as they finish their last: a thread that
    /// gets ahead takes more. (A fixed split of one-token products kept one core of two waiting
    /// for the other about 15% of a decode: Engine README, "Speed".) A chunk is a multiple of
    /// `granule` rows, except at a segment's end, about `chunksPerThread` per participant and
    /// segment; chunks are handed out segment after segment.
    public func runChunked(segments: Int, rows: (Int) -> Int, granule: Int, chunksPerThread: Int = 4,
                           _ body: (Int, Range<Int>, Int) -> Void) {
        let chunksPerSegment = threads * chunksPerThread
        func perChunk(_ count: Int) -> Int {
            let units = (count + granule - 1) / granule
            return max(1, (units + chunksPerSegment - 1) / chunksPerSegment) * granule
        }
        if threads == 1 {
            for segment in 0..<segments where rows(segment) > 0 { body(segment, 0..<rows(segment), 0) }
            return
        }
        shared.cursor.store(0, ordering: .relaxed)  // published to the workers by run's release
        run { index in
            while true {
                var chunk = shared.cursor.wrappingAdd(1, ordering: .relaxed).oldValue
                var segment = 0
                while segment < segments {
                    let count = rows(segment), size = perChunk(count), chunks = (count + size - 1) / size
                    if chunk < chunks {
                        body(segment, chunk * size..<min(count, (chunk + 1) * size), index)
                        break
                    }
                    chunk -= chunks
                    segment += 1
                }
                if segment == segments { return }
            }
        }
    }

    /// Splits 0..<count into one contiguous range per thread (multiples of `granule`).
    public static func share(of count: Int, part: Int, parts: Int, granule: Int = 1) -> Range<Int> {
        let units = (count + granule - 1) / granule
        let lo = units * part / parts * granule, hi = units * (part + 1) / parts * granule
        return min(lo, count)..<min(hi, count)
    }
}
