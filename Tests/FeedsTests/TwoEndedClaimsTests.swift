import Testing
import TestSupport
@testable import Feeds

/// Work taken from both ends (`TwoEndedClaims`): however the two takers interleave, every number is
/// taken exactly once, the front's in ascending order and the back's in descending, and nothing after
/// the ends meet.
struct TwoEndedClaimsTests {
    @Test func everyNumberIsTakenOnceWhateverTheOrder() {
        var generator = SplitMix64(seed: 77)
        for _ in 0..<2_000 {
            let first = Int(generator.next() % 4), count = Int(generator.next() % 40)
            var claims = TwoEndedClaims(front: first, back: first + count - 1)
            var fronts: [Int] = [], backs: [Int] = []
            while true {
                let fromFront = generator.next() % 2 == 0
                guard let number = fromFront ? claims.takeFront() : claims.takeBack() else { break }
                if fromFront { fronts.append(number) } else { backs.append(number) }
            }
            #expect(claims.takeFront() == nil && claims.takeBack() == nil)
            #expect((fronts + backs.reversed()) == Array(first..<first + count), "\(fronts) \(backs)")
        }
    }
}
