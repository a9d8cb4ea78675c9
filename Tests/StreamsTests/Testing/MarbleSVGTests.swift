import StreamsTesting
import Testing

@Suite("MarbleSVG")
struct MarbleSVGTests {
    let svg = MarbleSVG.render(MarbleBlock("""
        upstream: -1-'long'-^
                  op <x>
        output:   -1;|
        """))

    @Test func drawsValuesAsCirclesOrBoxesAndEachEndingItsOwnWay() {
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.components(separatedBy: "<circle class=\"value").count - 1 == 2)  // the two 1s
        #expect(svg.contains("<rect class=\"value"))                                // 'long'
        #expect(svg.contains("<path class=\"fail\""))                               // ^
        #expect(svg.contains("<line class=\"end\""))                                // |
        #expect(svg.contains("<circle class=\"cancel\""))                           // ;
        #expect(svg.contains("<rect class=\"op\""))                                 // the operator line
    }

    @Test func escapesTextAndIsDeterministic() {
        #expect(svg.contains("op &lt;x&gt;"))
        #expect(!svg.contains("op <x>"))
        #expect(svg == MarbleSVG.render(MarbleBlock("upstream: -1-'long'-^\n          op <x>\noutput:   -1;|")))
    }
}
