// Package partition picks a partition for a message: at random when the message has no key,
// by a hash of its key when it has one (the shape of github.com/IBM/sarama's hash
// partitioner). A test of a keyed message tests the hash, not the draw.
package partition

import (
	"hash/fnv"
	"math/rand/v2"
)

// Message is what a producer sends.
type Message struct {
	Key   []byte
	Value string
}

// Partitioner picks a partition of n for a message.
type Partitioner interface {
	Partition(m *Message, n int32) (int32, error)
}

type randomPartitioner struct{}

// NewRandomPartitioner picks a partition at random for every message.
func NewRandomPartitioner() Partitioner { return randomPartitioner{} } // want NewRandomPartitioner:"constructs\\(Partition random\\)"

func (randomPartitioner) Partition(m *Message, n int32) (int32, error) { // want Partition:"random\\(rand.Int32N\\)"
	return rand.Int32N(n), nil
}

type hashPartitioner struct{ random Partitioner }

// NewHashPartitioner hashes keyed messages and picks at random for the others.
func NewHashPartitioner() Partitioner { // want NewHashPartitioner:"constructs\\(Partition random\\)"
	p := new(hashPartitioner)
	p.random = NewRandomPartitioner()
	return p
}

// NewCustomHashPartitioner returns a constructor of hash partitioners.
func NewCustomHashPartitioner() func() Partitioner {
	return func() Partitioner {
		p := new(hashPartitioner)
		p.random = NewRandomPartitioner()
		return p
	}
}

func (p *hashPartitioner) Partition(m *Message, n int32) (int32, error) { // want Partition:"random\\(calls Partition, quiet when \\$0.Key != nil\\)"
	if m.Key == nil {
		return p.random.Partition(m, n)
	}
	h := fnv.New32a()
	h.Write(m.Key)
	return int32(h.Sum32() % uint32(n)), nil
}

// PartitionerFunc adapts a func to a Partitioner, as heimdall's RetriableFunc does.
type PartitionerFunc func(m *Message, n int32) (int32, error)

// Partition calls f.
func (f PartitionerFunc) Partition(m *Message, n int32) (int32, error) { return f(m, n) } // want Partition:"sampler"

// NewFuncPartitioner returns f as a Partitioner: its draws are f's.
func NewFuncPartitioner(f PartitionerFunc) Partitioner { return f }
