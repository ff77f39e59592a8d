package partition

import "testing"

// TestHashKeyed checks the partition of one keyed message by its bounds: the hash, no draw.
func TestHashKeyed(t *testing.T) {
	p := NewHashPartitioner()
	msg := Message{}
	msg.Key = []byte("1468509572224")
	choice, err := p.Partition(&msg, 50)
	if err != nil {
		t.Fatal(err)
	}
	if choice < 0 || choice >= 50 {
		t.Error(choice)
	}
}

// TestCustomKeyed is TestHashKeyed through a constructor's constructor, the key in a literal.
func TestCustomKeyed(t *testing.T) {
	p := NewCustomHashPartitioner()()
	choice, _ := p.Partition(&Message{Key: []byte("k")}, 50)
	if choice < 0 || choice >= 50 {
		t.Error(choice)
	}
}

// TestHashNoKey draws partitions of messages with no key and checks only their bounds.
func TestHashNoKey(t *testing.T) {
	p := NewHashPartitioner()
	for range 50 {
		choice, err := p.Partition(&Message{Value: "v"}, 50) // want `blind test: TestHashNoKey draws p.Partition 50 times and checks only their bounds \(choice < 0 \|\| choice >= 50\)`
		if err != nil {
			t.Fatal(err)
		}
		if choice < 0 || choice >= 50 {
			t.Error(choice)
		}
	}
}

// TestHashKeyCleared sets a key, then clears it: the message has no key when it is sent.
func TestHashKeyCleared(t *testing.T) {
	p := NewHashPartitioner()
	var msg Message
	msg.Key = []byte("k")
	msg.Key = nil
	for range 50 {
		choice, _ := p.Partition(&msg, 50) // want `blind test: TestHashKeyCleared draws p.Partition 50 times and checks only their bounds`
		if choice < 0 || choice >= 50 {
			t.Error(choice)
		}
	}
}

// The test's own func, adapted: no draw, though another Partitioner draws.
func TestFuncPartitioner(t *testing.T) {
	p := NewFuncPartitioner(func(m *Message, n int32) (int32, error) { return n - 1, nil })
	for range 10 {
		got, _ := p.Partition(&Message{}, 3)
		if got < 0 || got >= 3 {
			t.Fatal(got)
		}
	}
}
