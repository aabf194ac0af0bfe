/**
 * A minimal ONNX encoder: the few `onnx.proto` messages a small inference graph needs (model, graph, node,
 * attribute, tensor, value info), written as protobuf bytes by hand so tests can build real models without
 * Python or a protobuf dependency. Field numbers are those of onnx/onnx.proto3.
 */

export type OnnxElementType = 'float' | 'int64';

export interface OnnxTensor {
  name: string;
  type: OnnxElementType;
  dims: number[];
  values: ArrayLike<number>;
}

export interface OnnxValueInfo {
  name: string;
  type: OnnxElementType;
  /** A number is a fixed size; a string names a dynamic axis (`batch`, `sequence`). */
  dims: (number | string)[];
}

export type OnnxAttribute = { name: string; int: number } | { name: string; ints: number[] };

export interface OnnxNode {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: OnnxAttribute[];
}

export interface OnnxModel {
  /** IR 8 and opset 17 are read by every onnxruntime since 1.14. */
  irVersion?: number;
  opset?: number;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
}

// TensorProto.DataType and AttributeProto.AttributeType values.
const DATA_TYPE: Record<OnnxElementType, number> = { float: 1, int64: 7 };
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

/** Protobuf wire format: varints, length-delimited fields, nothing else is needed here. */
class ProtoWriter {
  private readonly parts: Uint8Array[] = [];

  varintField(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(BigInt(value));
    return this;
  }

  bytesField(field: number, bytes: Uint8Array): this {
    this.tag(field, 2);
    this.varint(BigInt(bytes.length));
    this.parts.push(bytes);
    return this;
  }

  stringField(field: number, value: string): this {
    return this.bytesField(field, new TextEncoder().encode(value));
  }

  messageField(field: number, message: ProtoWriter): this {
    return this.bytesField(field, message.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  private tag(field: number, wireType: number): void {
    this.varint(BigInt((field << 3) | wireType));
  }

  /** Negative int64 values (axis -1) are encoded as their 64-bit two's complement, ten bytes long. */
  private varint(value: bigint): void {
    let rest = BigInt.asUintN(64, value);
    const bytes: number[] = [];
    do {
      const low = Number(rest & 0x7fn);
      rest >>= 7n;
      bytes.push(rest > 0n ? low | 0x80 : low);
    } while (rest > 0n);
    this.parts.push(Uint8Array.from(bytes));
  }
}

function tensor(t: OnnxTensor): ProtoWriter {
  const count = t.dims.reduce((product, dim) => product * dim, 1);
  if (t.values.length !== count)
    throw new Error(`tensor ${t.name}: ${t.values.length} values for dims [${t.dims.join(', ')}]`);
  // raw_data is little-endian, as ONNX requires.
  const raw = new DataView(new ArrayBuffer(count * (t.type === 'float' ? 4 : 8)));
  for (let i = 0; i < count; i++) {
    const value = t.values[i] as number;
    if (t.type === 'float') raw.setFloat32(i * 4, value, true);
    else raw.setBigInt64(i * 8, BigInt(value), true);
  }
  const w = new ProtoWriter();
  for (const dim of t.dims) w.varintField(1, dim);
  return w.varintField(2, DATA_TYPE[t.type]).stringField(8, t.name).bytesField(9, new Uint8Array(raw.buffer));
}

function valueInfo(v: OnnxValueInfo): ProtoWriter {
  const shape = new ProtoWriter();
  for (const dim of v.dims) {
    const d = new ProtoWriter();
    if (typeof dim === 'number') d.varintField(1, dim);
    else d.stringField(2, dim);
    shape.messageField(1, d);
  }
  const tensorType = new ProtoWriter().varintField(1, DATA_TYPE[v.type]).messageField(2, shape);
  return new ProtoWriter().stringField(1, v.name).messageField(2, new ProtoWriter().messageField(1, tensorType));
}

function attribute(a: OnnxAttribute): ProtoWriter {
  const w = new ProtoWriter().stringField(1, a.name);
  if ('int' in a) return w.varintField(20, ATTRIBUTE_INT).varintField(3, a.int);
  for (const value of a.ints) w.varintField(8, value);
  return w.varintField(20, ATTRIBUTE_INTS);
}

function node(n: OnnxNode, index: number): ProtoWriter {
  const w = new ProtoWriter();
  for (const input of n.inputs) w.stringField(1, input);
  for (const output of n.outputs) w.stringField(2, output);
  w.stringField(3, `${n.opType.toLowerCase()}_${index}`).stringField(4, n.opType);
  for (const a of n.attributes ?? []) w.messageField(5, attribute(a));
  return w;
}

/** The serialized ModelProto, ready to write as `model.onnx`. */
export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const graph = new ProtoWriter();
  model.nodes.forEach((n, i) => graph.messageField(1, node(n, i)));
  graph.stringField(2, 'main');
  for (const t of model.initializers) graph.messageField(5, tensor(t));
  for (const v of model.inputs) graph.messageField(11, valueInfo(v));
  for (const v of model.outputs) graph.messageField(12, valueInfo(v));
  return new ProtoWriter()
    .varintField(1, model.irVersion ?? 8)
    .stringField(2, 'evident-tests')
    .messageField(7, graph)
    .messageField(8, new ProtoWriter().stringField(1, '').varintField(2, model.opset ?? 17))
    .finish();
}
