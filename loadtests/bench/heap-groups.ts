/**
 * Groups a heap snapshot's objects by type and constructor (self size; plain objects by their
 * properties, closures and contexts by their context's variables), each with the edges that hold
 * most of them; with a second snapshot subtracts the first: what N sockets added, per socket.
 * Large snapshots need room: node --max-old-space-size=3000 --import tsx bench/heap-groups.ts ...
 *
 *   tsx bench/heap-groups.ts LOADED.heapsnapshot [BASELINE.heapsnapshot] [--per N] [--top 40]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }
  }
  nodes: number[]
  edges: number[]
  strings: string[]
}

interface Group {
  count: number
  size: number
  retainers: Map<string, number>
}

function groups(file: string): Map<string, Group> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot
  const { node_fields, node_types, edge_fields, edge_types } = snap.snapshot.meta
  const nf = node_fields.length
  const ef = edge_fields.length
  const typeAt = node_fields.indexOf('type')
  const nameAt = node_fields.indexOf('name')
  const sizeAt = node_fields.indexOf('self_size')
  const edgesAt = node_fields.indexOf('edge_count')
  const edgeTypeAt = edge_fields.indexOf('type')
  const edgeNameAt = edge_fields.indexOf('name_or_index')
  const toAt = edge_fields.indexOf('to_node')
  const nodeTypes = node_types[0]
  const edgeTypes = edge_types[0]
  const { nodes, edges, strings } = snap
  const keyOf = (node: number): string => {
    const type = nodeTypes[nodes[node + typeAt]!]!
    const name = strings[nodes[node + nameAt]!]!
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return type
    if (type === 'number' || (type === 'hidden' && name.startsWith('system /'))) return `${type}:${name}`
    return `${type}:${name.slice(0, 60)}`
  }
  // first edge of each node, and the names of a node's property (or context variable) edges
  const firstEdge = new Uint32Array(nodes.length / nf + 1)
  for (let node = 0, i = 0, edge = 0; node < nodes.length; node += nf, i++) {
    firstEdge[i] = edge
    edge += nodes[node + edgesAt]! * ef
  }
  firstEdge[nodes.length / nf] = edges.length
  const edgeNames = (i: number, types: string[]): string[] => {
    const names: string[] = []
    for (let edge = firstEdge[i]!; edge < firstEdge[i + 1]!; edge += ef) {
      if (!types.includes(edgeTypes[edges[edge + edgeTypeAt]!]!)) continue
      names.push(strings[edges[edge + edgeNameAt]!]!)
    }
    return names
  }
  const contextOf = (i: number): number | undefined => {
    for (let edge = firstEdge[i]!; edge < firstEdge[i + 1]!; edge += ef)
      if (
        edgeTypes[edges[edge + edgeTypeAt]!] === 'internal' &&
        strings[edges[edge + edgeNameAt]!] === 'context'
      )
        return edges[edge + toAt]! / nf
    return undefined
  }
  /** Plain objects by their properties, closures by the variables of their context: who made them. */
  const detail = (i: number, key: string): string => {
    if (key === 'object:Object') return `${key}{${edgeNames(i, ['property']).slice(0, 6).join(',')}}`
    if (key.startsWith('closure:')) {
      const context = contextOf(i)
      return context === undefined ? key : `${key}[${edgeNames(context, ['context']).slice(0, 6).join(',')}]`
    }
    if (key === 'object:system / Context') return `${key}[${edgeNames(i, ['context']).slice(0, 6).join(',')}]`
    return key
  }
  const result = new Map<string, Group>()
  const keys: string[] = new Array(nodes.length / nf)
  for (let node = 0, i = 0; node < nodes.length; node += nf, i++) {
    const key = detail(i, keyOf(node))
    keys[i] = key
    let group = result.get(key)
    if (!group) result.set(key, (group = { count: 0, size: 0, retainers: new Map() }))
    group.count++
    group.size += nodes[node + sizeAt]!
  }
  // the retainer of each object: the (owner, edge) that points at it, counted per group
  let edge = 0
  for (let node = 0, i = 0; node < nodes.length; node += nf, i++) {
    const count = nodes[node + edgesAt]!
    for (let e = 0; e < count; e++, edge += ef) {
      const edgeType = edgeTypes[edges[edge + edgeTypeAt]!]!
      if (edgeType === 'weak' || edgeType === 'shortcut') continue
      const to = edges[edge + toAt]! / nf
      const nameOrIndex = edges[edge + edgeNameAt]!
      const edgeName =
        edgeType === 'element' || edgeType === 'hidden' ? `[${edgeType}]` : strings[nameOrIndex]
      const by = `${keys[i]}.${edgeName}`
      const group = result.get(keys[to]!)!
      group.retainers.set(by, (group.retainers.get(by) ?? 0) + 1)
    }
  }
  return result
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { per: { type: 'string', default: '10000' }, top: { type: 'string', default: '40' } },
})
const [loadedFile, baselineFile] = positionals
if (!loadedFile) throw new Error('a snapshot file is required')
const loaded = groups(loadedFile)
const baseline = baselineFile ? groups(baselineFile) : new Map<string, Group>()
const per = Number(values.per)
const rows = [...loaded].map(([key, group]) => {
  const before = baseline.get(key)
  return { key, group, count: group.count - (before?.count ?? 0), size: group.size - (before?.size ?? 0) }
})
rows.sort((a, b) => b.size - a.size)
const total = rows.reduce((sum, row) => sum + row.size, 0)
console.log(`total added: ${(total / 1024 / per).toFixed(2)} KiB per ${per}`)
for (const row of rows.slice(0, Number(values.top))) {
  const retainers = [...row.group.retainers].sort((a, b) => b[1] - a[1]).slice(0, 2)
  console.log(
    `${(row.size / per).toFixed(1).padStart(8)} B ${(row.count / per).toFixed(2).padStart(7)} x  ${row.key}   <- ${retainers.map(([by, n]) => `${by} (${n})`).join(', ')}`,
  )
}
