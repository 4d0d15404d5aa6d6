import Testing
import Mustache

@Suite("Mustache spec")
struct MustacheSpecTests {
    @Test("every case of the core spec modules renders exactly as expected")
    func coreSpec() throws {
        let cases = try MustacheSpec.cases(in: MustacheSpec.coreModules)
        let passed = MustacheSpec.passedCount(of: cases) { specCase, output in
            #expect(output == specCase.expected, "\(specCase)")
        }
        print("Mustache spec: \(passed) of \(cases.count) cases passed")
        #expect(cases.count > 100)
        #expect(Set(cases.map(\.module)) == Set(MustacheSpec.coreModules))
        #expect(passed == cases.count)
    }

    @Test("the optional dynamic-names module ({{>*name}}) passes too")
    func dynamicNamesSpec() throws {
        let cases = try MustacheSpec.cases(in: ["~dynamic-names"])
        let passed = MustacheSpec.passedCount(of: cases) { specCase, output in
            #expect(output == specCase.expected, "\(specCase)")
        }
        print("Mustache spec (~dynamic-names): \(passed) of \(cases.count) cases passed")
        #expect(cases.count > 10)
        #expect(passed == cases.count)
    }
}
