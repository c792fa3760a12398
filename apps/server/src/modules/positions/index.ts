// Positions: each wallet's holdings with value and profit and loss in XRP (average cost).
export { registerPositions } from './routes';
export { PositionsService } from './service';
