/// Draws a ``MarbleBlock`` as an SVG picture: one timeline per row, values as circles (longer
/// values as rounded boxes), `|` as a bar, `^` as a cross, `;` as a struck circle, operator lines
/// as boxes, and each row's comment to its right.
///
/// Every event of a tick is drawn side by side in that tick's column, and every row's columns
/// line up, so a group like `[12|]` widens its column for all rows. The picture follows the
/// reader's light or dark appearance. The output is deterministic (integer coordinates, no
/// dates), so a test can compare it with the committed file.
///
/// ```swift
/// let svg = MarbleSVG.render(MarbleBlock("upstream: -1-2-|\noutput:   -1-2-|"))
/// ```
public enum MarbleSVG {
    static let unit = 28  // width of an empty tick
    static let charWidth = 8  // monospace advance at font-size 13
    static let rowHeight = 40
    static let operatorHeight = 34
    static let margin = 12

    /// The SVG document for `block`, with `title` (the diagram's text by default) as its
    /// accessible title.
    ///
    /// - Parameters:
    ///   - block: The marble block to draw.
    ///   - title: The accessible title; `nil` for the diagram's text.
    /// - Returns: The SVG document.
    public static func render(_ block: MarbleBlock, title: String? = nil) -> String {
        let ticksByRow: [[[Marbles.Event]]] = block.rows.map { row in
            row.diagram == nil ? [] : ((try? block.ticks(of: row)) ?? [])
        }
        let tickCount = ticksByRow.map(\.count).max() ?? 0
        var columnWidths = Array(repeating: unit, count: tickCount)
        for ticks in ticksByRow {
            for (index, events) in ticks.enumerated() {
                columnWidths[index] = max(columnWidths[index], events.map(width(of:)).reduce(0, +))
            }
        }
        var columnStarts: [Int] = []
        let labelWidth = (block.rows.compactMap { $0.label?.count }.max() ?? 0) * charWidth
        let timelineStart = margin + (labelWidth == 0 ? 0 : labelWidth + margin)
        var x = timelineStart
        for columnWidth in columnWidths {
            columnStarts.append(x)
            x += columnWidth
        }
        let operatorWidth =
            (block.rows.filter { $0.diagram == nil }.map { $0.comment.count }.max() ?? 0) * charWidth + 16
        let timelineEnd = max(x + unit / 2, timelineStart + operatorWidth)
        let commentWidth = (block.rows.filter { $0.diagram != nil }.map { $0.comment.count }.max() ?? 0) * charWidth
        let totalWidth = timelineEnd + margin + (commentWidth == 0 ? 0 : commentWidth + margin)

        var body: [String] = []
        var y = margin
        for (row, ticks) in zip(block.rows, ticksByRow) {
            if row.diagram == nil {
                if row.comment.isEmpty {
                    y += rowHeight / 2
                    continue
                }
                let top = y + 3
                body.append(
                    #"<rect class="op" x="\#(timelineStart)" y="\#(top)" width="\#(timelineEnd - timelineStart)" height="\#(operatorHeight - 6)" rx="4"/>"#
                )
                body.append(
                    #"<text class="optext" x="\#((timelineStart + timelineEnd) / 2)" y="\#(top + 18)" text-anchor="middle">\#(escape(row.comment))</text>"#
                )
                y += operatorHeight
                continue
            }
            let mid = y + rowHeight / 2
            if let label = row.label {
                body.append(#"<text class="label" x="\#(margin)" y="\#(mid + 4)">\#(escape(label)):</text>"#)
            }
            body.append(#"<line class="axis" x1="\#(timelineStart)" y1="\#(mid)" x2="\#(timelineEnd)" y2="\#(mid)"/>"#)
            body.append(#"<path class="arrow" d="M\#(timelineEnd) \#(mid) l-7 -4 v8 z"/>"#)
            for (index, events) in ticks.enumerated() {
                let used = events.map(width(of:)).reduce(0, +)
                var left = columnStarts[index] + (columnWidths[index] - used) / 2
                for event in events {
                    let eventWidth = width(of: event)
                    body.append(draw(event, centerX: left + eventWidth / 2, centerY: mid, width: eventWidth))
                    left += eventWidth
                }
            }
            if !row.comment.isEmpty {
                body.append(
                    #"<text class="comment" x="\#(timelineEnd + margin)" y="\#(mid + 4)">\#(escape(row.comment))</text>"#
                )
            }
            y += rowHeight
        }
        let height = y + margin
        let titleText =
            title
            ?? block.rows.map { row in
                row.diagram.map { "\(row.label ?? ""): \($0) \(row.comment)".trimmingSpaces() } ?? row.comment
            }.joined(separator: "\n")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(totalWidth)" height="\(height)" viewBox="0 0 \(totalWidth) \(height)" role="img" font-family="ui-monospace, SFMono-Regular, Menlo, monospace" font-size="13">
            <title>\(escape(titleText))</title>
            <style>
            .axis, .end { stroke: #1d1d1f; stroke-width: 1.5; }
            .end { stroke-width: 3; }
            .arrow { fill: #1d1d1f; }
            .label, .optext, .vtext { fill: #1d1d1f; }
            .comment { fill: #6e6e73; }
            .value { stroke: #1d1d1f; stroke-width: 1.5; }
            .v0 { fill: #ffd479; } .v1 { fill: #9fd5ff; } .v2 { fill: #b8e986; } .v3 { fill: #ffb3c1; } .v4 { fill: #d9c2ff; }
            .op { fill: #f2f2f7; stroke: #8e8e93; }
            .fail { stroke: #d70015; stroke-width: 3; }
            .cancel { stroke: #c93400; stroke-width: 2; fill: none; }
            @media (prefers-color-scheme: dark) {
              .axis, .end, .value { stroke: #f5f5f7; }
              .arrow, .label, .optext { fill: #f5f5f7; }
              .comment { fill: #a1a1a6; }
              .op { fill: #2c2c2e; stroke: #8e8e93; }
              .fail { stroke: #ff6961; }
              .cancel { stroke: #ff9f0a; }
            }
            </style>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    static func width(of event: Marbles.Event) -> Int {
        guard case .value(let text) = event else { return unit * 2 / 3 }
        return max(unit, text.count * charWidth + 14)
    }

    static func draw(_ event: Marbles.Event, centerX x: Int, centerY y: Int, width: Int) -> String {
        switch event {
        case .value(let text):
            let color = "v\(text.unicodeScalars.reduce(0) { $0 + Int($1.value) } % 5)"
            let shape =
                text.count <= 2
                ? #"<circle class="value \#(color)" cx="\#(x)" cy="\#(y)" r="11"/>"#
                : #"<rect class="value \#(color)" x="\#(x - width / 2 + 2)" y="\#(y - 11)" width="\#(width - 4)" height="22" rx="11"/>"#
            return shape + #"<text class="vtext" x="\#(x)" y="\#(y + 4)" text-anchor="middle">\#(escape(text))</text>"#
        case .finished:
            return #"<line class="end" x1="\#(x)" y1="\#(y - 12)" x2="\#(x)" y2="\#(y + 12)"/>"#
        case .failure:
            return
                #"<path class="fail" d="M\#(x - 8) \#(y - 8) L\#(x + 8) \#(y + 8) M\#(x - 8) \#(y + 8) L\#(x + 8) \#(y - 8)"/>"#
        case .cancelled:
            return
                #"<circle class="cancel" cx="\#(x)" cy="\#(y)" r="8"/><path class="cancel" d="M\#(x - 6) \#(y + 6) L\#(x + 6) \#(y - 6)"/>"#
        }
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
