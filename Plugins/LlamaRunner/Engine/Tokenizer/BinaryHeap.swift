/// A minimal binary min-heap (the standard library has none).
struct BinaryHeap<Element: Comparable & Sendable>: Sendable {
    private var storage: [Element] = []

    /// Empties the heap, keeping its storage for reuse.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
    }

    mutating func push(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard element < storage[parent] else { break }
            storage[child] = storage[parent]
            child = parent
        }
        storage[child] = element
    }

    mutating func pop() -> Element? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        var parent = 0
        let count = storage.count
        while true {
            var child = 2 * parent + 1
            if child >= count { break }
            if child + 1 < count && storage[child + 1] < storage[child] { child += 1 }
            guard storage[child] < last else { break }
            storage[parent] = storage[child]
            parent = child
        }
        storage[parent] = last
        return top
    }
}
