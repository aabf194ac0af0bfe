import type { GraphLayout } from './graph-layout.ts';

/** The laid-out graph as SVG: rounded boxes for nodes, pills for start/end, dashed curves for conditional edges. */
export function GraphSvg({ layout, title }: { layout: GraphLayout; title: string }) {
  return (
    <svg
      className="graph-svg"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      role="img"
      aria-label={title}
    >
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="10"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
        </marker>
      </defs>
      {layout.edges.map((edge, i) => (
        <g
          key={`${edge.source}-${edge.target}-${i}`}
          className={edge.conditional ? 'edge conditional' : 'edge'}
          data-edge={`${edge.source}->${edge.target}`}
        >
          <path d={edge.path} markerEnd="url(#arrow)" strokeDasharray={edge.conditional ? '5 4' : undefined} />
          {edge.label && (
            <text
              x={edge.labelAt.x}
              y={edge.labelAt.y}
              className="edge-label"
              textAnchor={edge.labelAt.anchor}
              dominantBaseline="central"
            >
              {edge.label}
            </text>
          )}
        </g>
      ))}
      {layout.nodes.map((node) => (
        <g key={node.id} className={`node ${node.kind}`} data-node={node.id}>
          <rect
            x={node.x}
            y={node.y}
            width={node.width}
            height={node.height}
            rx={node.kind === 'node' ? 6 : node.height / 2}
          />
          <text x={node.x + node.width / 2} y={node.y + node.height / 2} dominantBaseline="central" textAnchor="middle">
            {node.id}
          </text>
        </g>
      ))}
    </svg>
  );
}
