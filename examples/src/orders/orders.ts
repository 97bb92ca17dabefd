export interface Order {
  id: string;
  total: number;
}

export function placeOrder(id: string): Order {
  return { id, total: 0 };
}
